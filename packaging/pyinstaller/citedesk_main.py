"""Entry point of the frozen build: the same `citedesk` command as the installed console script."""

import sys

from citedesk_desktop.launcher import main

if __name__ == "__main__":
    sys.exit(main())
