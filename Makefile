# SPDX-License-Identifier: Apache-2.0
# kilo - build, test and install.  See README.md.
#
#   make            build lib/ into build/libkilo.a and every cmd/<tool> into bin/<tool>
#   make check      build with ASan/UBSan in build/check/, lint, then unit + CLI tests
#   make demo       install what is missing (scripts/install-deps), build, run scripts/demo
#   make check-hadoop  the real-YARN tests (test/hadoop/, needs java, mvn, Maven Central)
#   make check-hadoop-all  them on each of HADOOP_VERSIONS (3.3.6 3.4.2 3.5.0)
#   make lint       formatting, shellcheck and the layers of lib/ (scripts/lint)
#   make bench      benchmarks under test/bench/ (not run by CI)
#   make install    PREFIX=/usr/local DESTDIR=
#
# Variables: WERROR=1 turns warnings into errors; SAN=1 adds the sanitizers;
# O=DIR puts objects elsewhere; BINDIR is where the tools land.

VERSION := 0.1.0
PREFIX ?= /usr/local
DESTDIR ?=
O ?= build
BINDIR ?= bin
SAN ?= 0
WERROR ?= 0
CC ?= cc

# lib/ is one folder per layer (lib/<layer>/README.md, doc/ARCHITECTURE.md);
# sources include headers as "<layer>/<name>.h" from -Ilib.
PKGS := jansson libcurl yaml-0.1
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
PKG_OK := $(shell pkg-config --exists $(PKGS) 2>/dev/null && echo y)
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null)

WARN := -Wall -Wextra -Wformat=2 -Wformat-security -Wmissing-prototypes -Wstrict-prototypes \
	-Wold-style-definition -Wpointer-arith -Wwrite-strings -Wvla -Wno-missing-field-initializers \
	-fno-common
ifeq ($(shell $(CC) -Werror -Wjump-misses-init -E -x c /dev/null >/dev/null 2>&1 && echo y),y)
WARN += -Wjump-misses-init
endif
ifeq ($(WERROR),1)
WARN += -Werror
endif

OPT ?= -O2 -g
ifeq ($(SAN),1)
OPT := -O1 -g -fno-omit-frame-pointer
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all
endif

ALL_CFLAGS := -std=gnu11 -D_GNU_SOURCE $(OPT) $(SANFLAGS) $(WARN) -Ilib -DKILO_VERSION='"$(VERSION)"' \
	$(PKG_CFLAGS) -MMD -MP $(CFLAGS)
ALL_LDFLAGS := $(SANFLAGS) $(LDFLAGS)
LIBS := $(PKG_LIBS) -lm -lpthread

LIB_SRC := $(sort $(wildcard lib/*/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(O)/%.o)
LIBKILO := $(O)/libkilo.a
TOOLS := $(sort $(patsubst cmd/%/main.c,%,$(wildcard cmd/*/main.c)))
BINS := $(TOOLS:%=$(BINDIR)/%)
UNIT_SRC := $(sort $(wildcard test/unit/test_*.c))
UNIT_HELPERS := $(filter-out $(UNIT_SRC),$(wildcard test/unit/*.c))
UNITS := $(UNIT_SRC:test/unit/%.c=$(O)/test/%)
TEST_TOOLS := $(patsubst test/tools/%.c,$(O)/test/tools/%,$(wildcard test/tools/*.c))
MANS := $(foreach t,$(TOOLS),$(wildcard cmd/$(t)/$(t).1.scd))

.PHONY: all check check-hadoop check-hadoop-all check-build bench install clean deps deps-hadoop man lint need-pkgs
.DELETE_ON_ERROR:
.SECONDARY: $(TOOLS:%=$(O)/cmd/%/main.o)

# V=1 shows the whole compiler command lines
ifeq ($(V),1)
Q :=
else
Q := @
endif

all: need-pkgs $(BINS)

# Without the -dev packages every link fails with pages of undefined
# references: say so once instead.  (demo and check install them first and
# then build in a make that reads pkg-config afresh.)
need-pkgs:
ifneq ($(PKG_OK),y)
	@echo "kilo: missing build libraries ($(PKGS)): run 'make deps' (or scripts/install-deps) first" >&2
	@exit 2
endif

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(LIBKILO): $(LIB_OBJ)
	@rm -f $@
	@$(if $(Q),echo "  AR      $@")
	$(Q)$(AR) rcs $@ $^

$(BINDIR)/%: $(O)/cmd/%/main.o $(LIBKILO)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $< $(LIBKILO) $(LIBS)

$(O)/test/%: test/unit/%.c $(UNIT_HELPERS) $(LIBKILO)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CCLD    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -Itest/unit -o $@ $< $(UNIT_HELPERS) $(LIBKILO) \
		$(ALL_LDFLAGS) $(CHECK_LIBS) $(LIBS)

# Test-only programs (not installed) that shell tests drive lib/ with.
$(O)/test/tools/%: test/tools/%.c $(LIBKILO)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CCLD    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIBKILO) $(ALL_LDFLAGS) $(LIBS)

# The attackers the kill tests race run at full speed: no sanitizer slows
# their forks and moves (and they need nothing of lib/).
ATTACKERS := $(O)/test/tools/forkchain $(O)/test/tools/hopper $(O)/test/tools/threadchurn
$(ATTACKERS): $(O)/test/tools/%: test/tools/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) -std=gnu11 -D_GNU_SOURCE -O2 $(WARN) -pthread -o $@ $<

# Tests: everything is rebuilt with the sanitizers into build/check.
CHECK_O := build/check
check: deps-hadoop
	@$(MAKE) --no-print-directory O=$(CHECK_O) BINDIR=$(CHECK_O)/bin SAN=1 check-build
	@sh scripts/lint --objects $(CHECK_O)
	@KILO_BIN=$(CURDIR)/$(CHECK_O)/bin KILO_UNIT_DIR=$(CURDIR)/$(CHECK_O)/test \
		sh test/run-all.sh

check-build: $(BINS) $(UNITS) $(TEST_TOOLS)

# Real YARN (Hadoop's own RM and NM daemons, test/hadoop/): needs java, mvn
# and Maven Central; HADOOP_VERSION selects the line (default 3.4.2).
check-hadoop: deps-hadoop
	@$(MAKE) --no-print-directory O=$(CHECK_O) BINDIR=$(CHECK_O)/bin SAN=1 check-build
	@KILO_BIN=$(CURDIR)/$(CHECK_O)/bin sh test/hadoop/run.sh

# The real-YARN tests on every Hadoop line kilo is held to (not run by CI:
# CI runs the default); one summary line per version, then which passed.
HADOOP_VERSIONS := 3.3.6 3.4.2 3.5.0
check-hadoop-all: deps-hadoop
	@$(MAKE) --no-print-directory O=$(CHECK_O) BINDIR=$(CHECK_O)/bin SAN=1 check-build
	@passed=""; failed=""; for v in $(HADOOP_VERSIONS); do \
		echo "== Hadoop $$v"; \
		if HADOOP_VERSION=$$v KILO_BIN=$(CURDIR)/$(CHECK_O)/bin sh test/hadoop/run.sh; then \
			passed="$$passed $$v"; else failed="$$failed $$v"; fi; \
	done; echo "hadoop versions: passed:$${passed:- none}; failed:$${failed:- none}"; \
	[ -z "$$failed" ]

deps:
	@sh scripts/install-deps --check-or-install

# make check also runs the real-YARN tests: a JDK and Maven besides; and
# the Kerberos tests: a KDC, faketime and python3-gssapi (test/krb/)
deps-hadoop:
	@sh scripts/install-deps --check-or-install --hadoop --krb

man: $(MANS:%.scd=$(O)/man/%)

$(O)/man/%: %.scd
	@mkdir -p $(dir $@)
	scdoc < $< > $@

bench: all
	@sh test/bench/run.sh

install: all man
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/kilo
	$(if $(BINS),install -m 0755 $(BINS) $(DESTDIR)$(PREFIX)/bin/)
	$(if $(MANS),install -m 0644 $(MANS:%.scd=$(O)/man/%) $(DESTDIR)$(PREFIX)/share/man/man1/)
	for s in scripts/*-loop; do if [ -f "$$s" ]; then install -m 0755 "$$s" $(DESTDIR)$(PREFIX)/bin/; fi; done
	install -d $(DESTDIR)$(PREFIX)/lib/kilo
	install -m 0644 scripts/loop-lib.sh $(DESTDIR)$(PREFIX)/lib/kilo/
	install -m 0755 scripts/kilo-node-metrics $(DESTDIR)$(PREFIX)/lib/kilo/
	if [ -d manifests ]; then cp -R manifests $(DESTDIR)$(PREFIX)/share/kilo/; fi

lint: $(LIB_OBJ)
	@sh scripts/lint --objects $(O)

clean:
	rm -rf build bin

-include $(LIB_OBJ:.o=.d) $(TOOLS:%=$(O)/cmd/%/main.d)

.PHONY: demo
demo: deps
	@$(MAKE) --no-print-directory all
	@sh scripts/demo
-include test/fuzz/fuzz.mk test/valgrind/valgrind.mk
