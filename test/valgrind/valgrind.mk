# SPDX-License-Identifier: Apache-2.0
# valgrind.mk - `make check-valgrind` (included from the Makefile).
#
# Builds the tools without sanitizers (valgrind and ASan do not mix) into
# build/valgrind/bin, writes one shim per tool into build/valgrind/shim that
# execs the real binary under valgrind memcheck, and runs the CLI tests with
# KILO_BIN pointing at the shims.  A memcheck error (invalid access, use of
# uninitialised memory, a definite leak) makes the tool exit 99, so the test
# running it fails; the reports are kept in build/valgrind/log/.
#
#   make check-valgrind                     every CLI test
#   make check-valgrind VALGRIND_FILTER=kill   only test paths containing "kill"
#
# VALGRIND_KNOWN lists tests that cannot pass under valgrind and why; they
# are reported but do not fail the target:
#   */real-cgroup.sh and demo/demo.sh, which kill: valgrind 3.19 (Debian 12)
#     answers ENOSYS to pidfd_open(2), so the killer cannot pin a pid and
#     refuses to signal;
#   yarn-copilot/list-nm.sh: asserts a wall-clock bound on --nm-timeout,
#     which memcheck's slowdown exceeds.

VALGRIND ?= valgrind
VALGRIND_O := build/valgrind
VALGRIND_FILTER ?=
VALGRIND_KNOWN ?= yarn-copilot/real-cgroup.sh evictor/real-cgroup.sh demo/demo.sh \
	yarn-copilot/list-nm.sh
VALGRIND_FLAGS := --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
	--show-leak-kinds=definite --track-origins=yes --trace-children=no

.PHONY: check-valgrind valgrind-build

valgrind-build:
	@$(MAKE) --no-print-directory O=$(VALGRIND_O) BINDIR=$(VALGRIND_O)/bin SAN=0 OPT="-O1 -g" \
		all $(patsubst test/tools/%.c,$(VALGRIND_O)/test/tools/%,$(wildcard test/tools/*.c))
	@mkdir -p $(VALGRIND_O)/shim $(VALGRIND_O)/log
	@for t in $(TOOLS); do \
		printf '#!/bin/sh\nexec %s %s --log-file=%s/%s.%%p.log %s "$$@"\n' \
			'$(VALGRIND)' '$(VALGRIND_FLAGS)' '$(CURDIR)/$(VALGRIND_O)/log' "$$t" \
			'$(CURDIR)/$(VALGRIND_O)/bin/'"$$t" >$(VALGRIND_O)/shim/$$t; \
		chmod +x $(VALGRIND_O)/shim/$$t; \
	done

check-valgrind: deps valgrind-build
	@command -v $(VALGRIND) >/dev/null || { echo "check-valgrind: $(VALGRIND) not installed"; exit 1; }
	@rm -f $(VALGRIND_O)/log/*.log
	@KILO_BIN=$(CURDIR)/$(VALGRIND_O)/shim sh test/cli/run.sh '$(VALGRIND_FILTER)' \
		>$(VALGRIND_O)/cli.log 2>&1; cat $(VALGRIND_O)/cli.log; \
		unexpected=""; \
		grep -q '^cli: [0-9]* passed' $(VALGRIND_O)/cli.log || unexpected=" (run.sh gave no closing line)"; \
		for t in $$(sed -n 's/^FAIL //p' $(VALGRIND_O)/cli.log); do \
			case " $(VALGRIND_KNOWN) " in *" $$t "*) echo "check-valgrind: known under valgrind: $$t" ;; \
			*) unexpected="$$unexpected $$t" ;; esac; \
		done; \
		bad=$$(grep -l 'ERROR SUMMARY: [1-9]' $(VALGRIND_O)/log/*.log 2>/dev/null); \
		n=$$(ls $(VALGRIND_O)/log/*.log 2>/dev/null | wc -l); \
		echo "check-valgrind: $$n runs under memcheck, $$(echo $$bad | wc -w) with errors"; \
		for f in $$bad; do echo "--- $$f"; grep -E '^==[0-9]+== (Invalid|Conditional|Use of|Syscall|[0-9,]+ bytes .* definitely)' $$f | head -n 5; done; \
		[ -z "$$unexpected" ] || echo "check-valgrind: failed:$$unexpected"; \
		[ -z "$$unexpected" ] && [ -z "$$bad" ]
