#!/usr/bin/env bash
# Installs the system packages the test suite needs, once, before pytest starts its
# workers (so two workers never race for dpkg's lock): Debian's chromium (browser tests),
# postgresql (ledger tests, started per session by the fixtures) and a CJK font (the
# generator's drawn tile faces). Only as root with apt-get (CI on a fresh machine); elsewhere
# it says what is missing and the fixtures report it. Nothing is installed twice.
set -u
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || missing+=(postgresql)
[ -f /usr/share/fonts/truetype/wqy/wqy-zenhei.ttc ] || missing+=(fonts-wqy-zenhei)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "test-services: missing ${missing[*]} (install them as root: apt-get install ${missing[*]})" >&2
    exit 0
fi
echo "test-services: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
lock=(-o DPkg::Lock::Timeout=600)
apt-get "${lock[@]}" update -q >/dev/null || true
apt-get "${lock[@]}" install -y -q --no-install-recommends "${missing[@]}" >/dev/null
