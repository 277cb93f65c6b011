import sys

from tenace.cli import main

sys.exit(main())
