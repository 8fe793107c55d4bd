#!/usr/bin/env bash
# Installs the external tools some tests drive (each such test skips, saying how to install its tool,
# when the tool is missing): h2load, redis-server and chromium from Debian, h2spec from the Go module
# proxy, kosoku (the Autobahn WebSocket cases) and openapi-spec-validator from PyPI. Each step is skipped when its tool is present, and a
# failed install only warns: the tests that need the tool then skip.
set -uo pipefail

missing_debs=()
command -v h2load >/dev/null 2>&1 || missing_debs+=(nghttp2-client)
command -v redis-server >/dev/null 2>&1 || missing_debs+=(redis-server)
command -v chromium >/dev/null 2>&1 || missing_debs+=(chromium)
if [ ${#missing_debs[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1; then
    echo "== tools: installing ${missing_debs[*]}"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing_debs[@]}") >/dev/null \
      || echo "== tools: could not install ${missing_debs[*]}"
  else
    echo "== tools: no apt-get to install ${missing_debs[*]}"
  fi
fi

gobin=$(go env GOPATH 2>/dev/null)/bin
if ! command -v h2spec >/dev/null 2>&1 && [ ! -x "$gobin/h2spec" ]; then
  if command -v go >/dev/null 2>&1; then
    echo "== tools: installing h2spec"
    go install github.com/summerwind/h2spec/cmd/h2spec@latest >/dev/null 2>&1 || echo "== tools: could not install h2spec"
  else
    echo "== tools: no Go to install h2spec"
  fi
fi

for module in kosoku openapi_spec_validator; do
  if ! python3 -c "import $module" >/dev/null 2>&1; then
    package=${module//_/-}
    if command -v pip3 >/dev/null 2>&1; then
      echo "== tools: installing $package"
      pip3 install -q "$package" >/dev/null 2>&1 || echo "== tools: could not install $package"
    else
      echo "== tools: no pip3 to install $package"
    fi
  fi
done
exit 0
