# SPDX-License-Identifier: GPL-2.0
#
# unveil(2) for Linux: everything from a fresh Debian 12 machine.
#   make run       build what is missing, boot the kernel, show the demo
#   make test      KUnit + kselftests in the VM; ends "N passed, N failed"
#   make build     kernel (build/bzImage), headers and guest programs
#   make patches   git format-patch series with cover letter in build/patches/
#   make vm CMD="..." [ADD="file ..."]   run a command in the VM
#   make clean     remove build/ (the ccache cache stays)

.PHONY: run test build patches vm clean

run: build
	scripts/vm -- unveil-demo

test:
	scripts/test

build:
	scripts/build

patches:
	scripts/export-patches

vm: build
	scripts/vm $(foreach f,$(ADD),--add $(f)) -- $(CMD)

clean:
	rm -rf build
