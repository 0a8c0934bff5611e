#!/usr/bin/env bash
# Install every toolchain the tests use, from the registries this machine reaches
# (Debian, PyPI, npm, rustup). Idempotent: what is already there is left alone.
# Source it (`. scripts/setup.sh`) so RULEC_TSC and PATH reach the caller.
set -euo pipefail

rustup component add clippy rustfmt >/dev/null 2>&1 || rustup component add clippy rustfmt

need_apt=()
command -v go >/dev/null 2>&1 || need_apt+=(golang-go)
command -v javac >/dev/null 2>&1 || need_apt+=(openjdk-17-jdk-headless)
command -v node >/dev/null 2>&1 || need_apt+=(nodejs npm)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3 python3-pip)
# git: the production loop's tests read rules at git revisions (`rules/x.rule@HEAD~1`).
command -v git >/dev/null 2>&1 || need_apt+=(git)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: apt-get install ${need_apt[*]}"
  apt-get update -qq
  mkdir -p /usr/share/man/man1   # the JDK's postinst needs it on slim images
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

if ! command -v ruff >/dev/null 2>&1 || ! command -v mypy >/dev/null 2>&1; then
  echo "setup: pip install ruff mypy"
  python3 -m pip install -q ruff mypy 2>/dev/null || python3 -m pip install -q --break-system-packages ruff mypy
  command -v pyenv >/dev/null 2>&1 && pyenv rehash || true
fi

ts_dir="${RULEC_TOOLS:-$HOME/.cache/rulec-tools}/typescript"
if [ ! -x "$ts_dir/node_modules/.bin/tsc" ]; then
  echo "setup: npm install typescript@5"
  npm install --prefix "$ts_dir" --no-audit --no-fund --silent typescript@5 >/dev/null
fi
export RULEC_TSC="$ts_dir/node_modules/.bin/tsc"
export PATH="$ts_dir/node_modules/.bin:$PATH"
