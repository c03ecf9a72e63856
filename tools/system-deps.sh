#!/bin/sh
# Debian packages the build needs beyond Python: the X11 misc-fixed bitmap font that the
# terminal's display font is generated from (xfonts-base), and Chromium, in which the tests
# render the HTML reports headless. Installs what is missing when run as root (as on CI and
# the project's machines); otherwise says what to install.
set -e
missing=""
[ -f /usr/share/fonts/X11/misc/6x9.pcf.gz ] || missing="$missing xfonts-base"
[ -x /usr/bin/chromium ] || missing="$missing chromium"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "missing Debian packages:$missing (run: sudo apt-get install$missing)" >&2
  exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
