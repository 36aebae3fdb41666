"""``python -m statetree``: the ``statetree`` command."""

from __future__ import annotations

from statetree.cli.program import main

raise SystemExit(main())
