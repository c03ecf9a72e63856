#!/bin/sh
# Debian packages the build needs beyond Python: the X11 misc-fixed bitmap font that the
# terminal's display font is generated from (xfonts-base), Chromium, in which the tests render
# the HTML reports headless (and, through chromium-driver, drive the live results page), and the PostgreSQL server (postgresql), of which the tests start
# a cluster of their own in a temporary folder (tests/pg_server.py). Installs what is missing
# when run as root (as on CI and the project's machines); otherwise says what to install.
set -e
missing=""
[ -f /usr/share/fonts/X11/misc/6x9.pcf.gz ] || missing="$missing xfonts-base"
[ -x /usr/bin/chromium ] || missing="$missing chromium"
[ -x /usr/bin/chromedriver ] || missing="$missing chromium-driver"
ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || missing="$missing postgresql"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "missing Debian packages:$missing (run: sudo apt-get install$missing)" >&2
  exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
