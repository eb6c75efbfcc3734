# SPDX-License-Identifier: Apache-2.0
# fuzz.mk - libFuzzer targets of test/fuzz/ (included from the Makefile).
#
#   make fuzz             build every target into build/fuzz/ and run each for
#                         FUZZ_SECONDS (default 60) over its committed corpus
#   make fuzz FUZZ_TARGETS="quantity nm"   only those
#   make fuzz-build       build only
#
# Needs clang and its libFuzzer runtime (Debian: clang, libclang-rt-14-dev).
# Crashing inputs land in build/fuzz/crash/; new corpus entries in
# build/fuzz/corpus/<target>/ (the committed seeds stay untouched).

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_O := build/fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS := -std=gnu11 -D_GNU_SOURCE -O1 -g -fno-omit-frame-pointer $(FUZZ_SAN) \
	-Ilib -Itest/fuzz -DKILO_VERSION='"$(VERSION)"' $(PKG_CFLAGS) -MMD -MP
FUZZ_ALL := $(sort $(patsubst test/fuzz/fuzz_%.c,%,$(wildcard test/fuzz/fuzz_*.c)))
FUZZ_TARGETS ?= $(FUZZ_ALL)
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(FUZZ_O)/%.o)
FUZZ_BINS := $(FUZZ_ALL:%=$(FUZZ_O)/fuzz_%)

.PHONY: fuzz fuzz-build

$(FUZZ_O)/lib/%.o: lib/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_O)/libkilo.a: $(FUZZ_LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(FUZZ_O)/fuzz_%: test/fuzz/fuzz_%.c test/fuzz/fuzz.h $(FUZZ_O)/libkilo.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_O)/libkilo.a $(LIBS)

fuzz-build: $(FUZZ_BINS)

fuzz: fuzz-build
	@sh test/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

-include $(FUZZ_LIB_OBJ:.o=.d)
