# SPDX-License-Identifier: Apache-2.0
# The fake RM answers in the shapes of the fixtures (test/fake/fake_rm_check.py).
. "$KILO_TOP/test/lib.sh"
command -v python3 >/dev/null || fail "python3 is required"
python3 "$KILO_TOP/test/fake/fake_rm_check.py" || fail "fake RM drifted from the fixtures"
