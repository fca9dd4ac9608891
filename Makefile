# SPDX-License-Identifier: GPL-2.0
#
# unveil(2) for Linux: everything from a fresh Debian 12 machine.
#   make run       build what is missing, boot the kernel, show the demo
#   make test      KUnit + kselftests in the VM; ends "N passed, N failed"
#   make debug-test  the tests and a stress run on a KASAN/lockdep/kmemleak
#                  kernel; fails on any kernel splat
#   make stack-test  the tests on a kernel with every module a distribution
#                  builds in (AppArmor, SELinux, ...), booted in two lsm= orders
#   make fuzz [MINUTES=10]  trinity against a veiled process on the debug
#                  kernel; fails on a splat or a file changed outside its
#                  scratch directory
#   make test-arm64  cross-build for arm64, boot it in qemu-system-aarch64 and
#                  run the kselftests there
#   make cross-check the syscall tables of every architecture: headers
#                  generated, and built where Debian packages a cross compiler
#   make build     kernel (build/bzImage), headers and guest programs
#   make patches   the mail-ready series in patches/series/ and
#                  patches/lsm-series/ (checked)
#   make bisect-check  build every prefix of the series (W=1, sparse,
#                  KUnit)
#   make bench     benchmark against no veil and Landlock, report in build/bench/
#   make vm CMD="..." [ADD="file ..."]   run a command in the VM
#   make install [PREFIX=/usr/local] [DESTDIR=]   libunveil (unveil() on
#                  every kernel: <unveil.h>, -lunveil, unveil.pc),
#                  <linux/unveil.h>, the unveil launcher (built for this
#                  machine), its profiles and the man pages
#   make clean     remove build/ (the ccache cache stays)

.PHONY: run test debug-test stack-test fuzz test-arm64 cross-check build patches bisect-check bench vm \
	install clean

run: build
	scripts/vm -- demo

test:
	scripts/test

debug-test:
	scripts/debug-test

stack-test:
	scripts/stack-test

MINUTES ?= 10
fuzz:
	scripts/fuzz $(MINUTES)

test-arm64:
	scripts/test-arm64

cross-check:
	scripts/cross-check

build:
	scripts/build

patches:
	scripts/export-patches

bisect-check:
	scripts/bisect-check

bench:
	scripts/bench

vm: build
	scripts/vm $(foreach f,$(ADD),--add $(f)) -- $(CMD)

PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
CFLAGS ?= -O2 -Wall
PROFILES := git python3 sqlite3 tar
VERSION := 1.1
LIB_SOURCES := libunveil/unveil.c libunveil/landlock.c libunveil/ties.c
LIB_HEADERS := libunveil/unveil.h libunveil/emulation.h tools/unveil/unveil.h
HOST_CC = $(CC) $(CFLAGS) -idirafter include/uapi

build/host/static/%.o: libunveil/%.c $(LIB_HEADERS)
	mkdir -p $(@D)
	$(HOST_CC) -c -o $@ $<

build/host/shared/%.o: libunveil/%.c $(LIB_HEADERS)
	mkdir -p $(@D)
	$(HOST_CC) -fPIC -fvisibility=hidden -c -o $@ $<

build/host/libunveil.a: $(LIB_SOURCES:libunveil/%.c=build/host/static/%.o)
	rm -f $@
	$(AR) rcs $@ $^

build/host/libunveil.so.1: $(LIB_SOURCES:libunveil/%.c=build/host/shared/%.o)
	$(CC) $(CFLAGS) -shared -Wl,-soname,libunveil.so.1 -o $@ $^

build/host/unveil: tools/unveil/unveil.c build/host/libunveil.a include/uapi/linux/unveil.h
	$(HOST_CC) -DUNVEIL_PROFILE_DIR='"$(PREFIX)/share/unveil/profiles"' \
		-DUNVEIL_VERSION='"$(VERSION)"' \
		-o $@ tools/unveil/unveil.c build/host/libunveil.a

build/host/test-libunveil: libunveil/test-libunveil.c build/host/libunveil.a
	$(HOST_CC) -o $@ $< build/host/libunveil.a

install: build/host/unveil build/host/libunveil.a build/host/libunveil.so.1
	install -D -m 644 libunveil/unveil.h $(DESTDIR)$(PREFIX)/include/unveil.h
	install -D -m 644 libunveil/overlay/unistd.h $(DESTDIR)$(PREFIX)/include/unveil/unistd.h
	install -D -m 644 build/host/libunveil.a $(DESTDIR)$(LIBDIR)/libunveil.a
	install -D -m 755 build/host/libunveil.so.1 $(DESTDIR)$(LIBDIR)/libunveil.so.1
	ln -sf libunveil.so.1 $(DESTDIR)$(LIBDIR)/libunveil.so
	mkdir -p $(DESTDIR)$(LIBDIR)/pkgconfig
	sed 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@VERSION@|$(VERSION)|' \
		libunveil/unveil.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/unveil.pc
	[ -n "$(DESTDIR)" ] || ldconfig
	install -D -m 644 include/uapi/linux/unveil.h $(DESTDIR)$(PREFIX)/include/linux/unveil.h
	install -D -m 755 build/host/unveil $(DESTDIR)$(PREFIX)/bin/unveil
	install -D -m 644 -t $(DESTDIR)$(PREFIX)/share/unveil/profiles \
		$(addprefix tools/unveil/profiles/,$(PROFILES))
	install -D -m 644 man/man1/unveil.1 $(DESTDIR)$(PREFIX)/share/man/man1/unveil.1
	install -D -m 644 man/man2/unveil.2 $(DESTDIR)$(PREFIX)/share/man/man2/unveil.2
	ln -sf unveil.2 $(DESTDIR)$(PREFIX)/share/man/man2/unveil_supported.2
	ln -sf unveil.2 $(DESTDIR)$(PREFIX)/share/man/man2/unveil_active.2
	ln -sf unveil.2 $(DESTDIR)$(PREFIX)/share/man/man2/unveil_mode.2
	ln -sf unveil.2 $(DESTDIR)$(PREFIX)/share/man/man2/unveil_mode_name.2
	ln -sf unveil.2 $(DESTDIR)$(PREFIX)/share/man/man2/unveil_permit_unprotected.2

clean:
	rm -rf build
