#!/usr/bin/env bash
# Set-up and everyday commands. Each one installs what it needs first and is
# safe to run again:
#   ./manage.sh serve   install the runtime, then start the server (embedded defaults)
#   ./manage.sh serve --processes N   PostgreSQL, Redis, nginx and N processes in a temporary directory
#   ./manage.sh install   install the runtime only (what "serve" needs, the pages' script bundle included)
#   ./manage.sh test    install everything, then run every test
#   ./manage.sh install-test   only the installation part of "test"
#   ./manage.sh strings  bring the French catalogues in line with the code (see docs/ENGINEERING.md)
set -euo pipefail
cd "$(dirname "$0")"

VENV=.venv
PY="$VENV/bin/python"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
  echo "need root to install system packages: $*" >&2; return 1; fi; }

apt_install() {
  local missing=()
  for package in "$@"; do dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "Installing system packages: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# Each install step runs only when what it installs from changed: a stamp beside the result keeps
# the SHA-256 of its inputs (running `npm ci` or pip on every test run cost most of a minute).
stamp_of() { cat "$@" | sha256sum | cut -d' ' -f1; }
pip_install() {
  local stamp="$VENV/.stamp-$(basename "$1")" sum; sum=$(stamp_of "$@")
  [ "$(cat "$stamp" 2>/dev/null)" = "$sum" ] && return 0
  "$PY" -m pip install -q --disable-pip-version-check -r "$1"
  echo "$sum" > "$stamp"
}
npm_install() {
  local stamp=node_modules/.stamp-package-lock sum
  sum=$(stamp_of package-lock.json manage.sh scripts/pyodide_stdlib.py scripts/pyodide_stdlib.mjs \
    scripts/pyodide_stdlib_modules.txt)
  [ "$(cat "$stamp" 2>/dev/null)" = "$sum" ] && [ -d static/vendor ] && return 0
  npm ci --no-audit --no-fund --loglevel=error  # with the devDependencies: axe-core, for the browser suite's accessibility check
  copy_vendor
  echo "$sum" > "$stamp"
}

copy_vendor() {
  mkdir -p static/vendor
  cp node_modules/socket.io-client/dist/socket.io.esm.min.js static/vendor/
  # The audited SHA-256 and HMAC the browser verifies draws with: ES modules, copied as they ship.
  mkdir -p static/vendor/noble-hashes
  for module in sha2 _md _u64 utils hmac; do
    cp "node_modules/@noble/hashes/$module.js" static/vendor/noble-hashes/
  done
  cp node_modules/@noble/hashes/LICENSE static/vendor/noble-hashes/
  # CPython in WebAssembly: the verify page replays the game with the games' own Python rules. Only
  # the interpreter and its standard library: the page loads no other package. The npm package ships
  # no LICENSE file: its package.json names the licence (MPL-2.0), kept beside it with its README.
  mkdir -p static/vendor/pyodide
  for file in pyodide.mjs pyodide.asm.js pyodide.asm.wasm python_stdlib.zip pyodide-lock.json package.json README.md; do
    cp "node_modules/pyodide/$file" static/vendor/pyodide/
  done
  # Its standard library compiled ahead, by that very Python run in Node (scripts/pyodide_stdlib.mjs): the
  # page's Python then starts without compiling the modules it imports (tens of seconds on a slow phone).
  # Without it the page works the same, slower (the server says so in its log).
  echo "Compiling Python's standard library for the verify page (a minute or two)"
  node scripts/pyodide_stdlib.mjs static/vendor/pyodide/python_stdlib.zip ||
    echo "static/vendor/pyodide/python_stdlib.zip left as source: the verify page's Python starts slower" >&2
}

install_runtime() {
  if command -v apt-get >/dev/null; then
    apt_install libusb-1.0-0
    python3 -m venv --help >/dev/null 2>&1 || apt_install python3-venv
    command -v npm >/dev/null || apt_install npm
  fi
  [ -x "$PY" ] || python3 -m venv "$VENV"
  pip_install requirements.txt
  npm_install
  # The pages' scripts bundled and minified by esbuild into static/bundles/, only when a script changed
  # (companion/web/bundles.py; a server without it serves the modules unbundled).
  "$PY" -m companion.web.bundles
  # The verify page's rules zip compiled ahead by its own Python (build/rules.zip), when the rules changed
  # (companion/rules_bundle.py; without it the server serves the rules as source, slower on a phone).
  "$PY" -m companion.rules_bundle || true
  # The compiled translations: only the stale ones (the app and the tests compile them too).
  "$PY" -c 'from companion.catalogues import compile_catalogues; compile_catalogues()'
}

# Several processes on one machine (scripts/cluster.py): the database, the message queue, the proxy.
install_cluster() {
  if command -v apt-get >/dev/null; then apt_install postgresql libpq5 redis-server nginx; fi
}

install_test() {
  install_runtime
  install_cluster
  if command -v apt-get >/dev/null; then apt_install chromium zbar-tools fonts-noto-color-emoji sqlite3; fi
  pip_install requirements-dev.txt
}

case "${1:-}" in
  serve)
    shift
    if [ "${1:-}" = "--processes" ]; then
      install_runtime; install_cluster; exec "$PY" -m scripts.cluster "$@"
    fi
    install_runtime; exec "$PY" app.py ;;
  # Two workers (the machine's two cores), a test file per worker: a file's module fixtures (its server, its
  # browser) start once; the costliest files first, in the order tests/conftest.py collects them.
  # COMPANION_TEST_WORKERS=0 runs everything in this process.
  test) install_test; shift
    exec "$PY" -m pytest -n "${COMPANION_TEST_WORKERS:-2}" --dist loadfile --no-loadscope-reorder "$@" ;;
  install) install_runtime ;;
  install-test) install_test ;;
  # The pictures of the README and docs/PLAYING.md (docs/screenshot-*.png, docs/screens/): only this rewrites them;
  # the tests alone write to test-artifacts/.
  screenshots) install_test; COMPANION_DOC_SCREENSHOTS=1 exec "$PY" -m pytest -m doc_screenshots -q -p no:cacheprovider ;;
  strings) "$PY" -m scripts.translations; "$VENV/bin/pybabel" -q compile -d companion/translations ;;
  *) echo "usage: ./manage.sh serve [--processes N] | install | test [pytest args] | install-test | screenshots | strings" >&2; exit 2 ;;
esac
