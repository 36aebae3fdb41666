"""statetree against its Python peers and a hand-written baseline, on the same work.

``script`` defines the work (the character controller and its script), ``contenders`` holds
one module per contender, ``workloads`` turns them into measured tables, ``timing`` and
``memory`` measure, ``report`` prints.
"""
