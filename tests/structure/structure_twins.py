"""A state whose qualified name, Twin, is also used in structure_samples."""

from __future__ import annotations

import statetree as st


class Twin(st.State[None]):
    pass
