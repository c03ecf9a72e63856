"""`python -m host_sync` is the same as the `host-sync` command."""

import sys

from host_sync.cli import main

sys.exit(main())
