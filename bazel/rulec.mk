# rulec.mk — rulec for a repository without Bazel.
#
#   RULEC_RULES := $(wildcard rules/*.rule)      # the rule files (not the enums files they use)
#   RULEC_LANGS := python,go
#   include path/to/rulec/bazel/rulec.mk
#
# gives
#
#   rulec-gen    generate every rule whose inputs changed: one `rulec gen` per rule, writing
#                $(RULEC_OUT)/<lang>/… and $(RULEC_OUT)/vectors/…, and its entries of $(RULEC_LOCK)
#   rulec-check  `rulec check` the rules, and hold $(RULEC_OUT) and $(RULEC_LOCK) to a fresh
#                generation: exit 1 naming each hand-edited, missing or stale file
#   rulec-test   `rulec test`: every generated language's runner against the vectors
#
# A rule's outputs depend on the rule file, on every enums file it `use`s (rulec writes the
# list, a depfile, each time it generates the rule) and on the rulec binary; nothing else.
# Safe under make -j (one rulec updates the lock at a time). A second make runs nothing.

RULEC ?= rulec
RULEC_RULES ?=
RULEC_OUT ?= generated
RULEC_LANGS ?= rust,python,typescript,javascript,go,java
RULEC_LOCK ?= rulec.lock
# Per rule, a stamp (the record that it was generated) and a depfile (what rulec read for it).
RULEC_STATE ?= .rulec

# The binary a rule's outputs depend on: RULEC itself when it is a path, else the one on PATH.
RULEC_BIN := $(or $(wildcard $(RULEC)),$(shell command -v $(RULEC) 2>/dev/null))
RULEC_STAMPS := $(patsubst %.rule,$(RULEC_STATE)/%.stamp,$(RULEC_RULES))

# The settings every rule is generated with: a change to one regenerates them all.
_rulec_settings := out=$(RULEC_OUT) langs=$(RULEC_LANGS) lock=$(RULEC_LOCK)
_rulec_settings_file := $(RULEC_STATE)/settings
ifneq ($(file < $(_rulec_settings_file)),$(_rulec_settings))
$(shell mkdir -p $(RULEC_STATE))
$(file > $(_rulec_settings_file),$(_rulec_settings))
endif

.PHONY: rulec-gen rulec-check rulec-test

rulec-gen: $(RULEC_STAMPS)

# rulec writes the depfile last, and the stamp is touched after it: both are newer than
# every output. The depfiles are not targets, so make never regenerates a rule just to read
# them (as it would before `rulec-check`).
$(RULEC_STATE)/%.stamp: %.rule $(RULEC_BIN) $(_rulec_settings_file)
	$(RULEC) gen $< --out $(RULEC_OUT) --lang $(RULEC_LANGS) --lock $(RULEC_LOCK) --no-servers --quiet --depfile $(@:.stamp=.d) --depfile-target $@
	@touch $@

-include $(RULEC_STAMPS:.stamp=.d)

rulec-check:
	$(RULEC) check --color never $(RULEC_RULES)
	$(RULEC) gen $(RULEC_RULES) --out $(RULEC_OUT) --lang $(RULEC_LANGS) --lock $(RULEC_LOCK) --locked --check --no-servers --quiet

rulec-test: rulec-gen
	$(RULEC) test $(RULEC_OUT) --lang $(RULEC_LANGS)
