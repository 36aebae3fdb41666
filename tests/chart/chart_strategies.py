"""Hypothesis strategies for charts: random valid charts and random event scripts."""

from __future__ import annotations

from hypothesis import strategies as st

from statetree.chart import ActionDef, Chart, Condition, Event, Policy, ScriptStep, StateDef
from statetree.chart import builder as b

NAMES = ("A", "B", "C", "D")
TRIGGERS = (
    b.input("X"),
    b.input("Y"),
    b.event("E"),
    b.event("F"),
    b.anim_finished("Anim"),
    b.held("H"),
    b.timer("T"),
)
ACTIONS = (b.raise_event("E"), b.raise_event("F"), b.clear_history(), b.start_timer("T", 0.5))
MAX_DEPTH = 3


def conditions(depth: int = 2) -> st.SearchStrategy[Condition]:
    """Triggers, and all / any / not of them, ``depth`` levels deep at most."""
    leaves: st.SearchStrategy[Condition] = st.sampled_from(TRIGGERS)
    if depth == 0:
        return leaves
    inner = conditions(depth - 1)
    return st.one_of(
        leaves,
        st.lists(inner, min_size=1, max_size=2).map(lambda items: b.all_of(*items)),
        st.lists(inner, min_size=1, max_size=2).map(lambda items: b.any_of(*items)),
        inner.map(b.not_),
    )


def actions() -> st.SearchStrategy[tuple[ActionDef, ...]]:
    return st.lists(st.sampled_from(ACTIONS), max_size=2).map(tuple)


@st.composite
def states(
    draw: st.DrawFn,
    name: str,
    parent: Policy | None,
    *,
    siblings: tuple[str, ...] = (),
    last: bool = True,
    depth: int = 0,
) -> StateDef:
    """A state valid under a parent of policy ``parent`` (``None``: the root)."""
    some = st.lists(conditions(), min_size=1, max_size=2).map(tuple)
    pre: tuple[Condition, ...] = ()
    post: tuple[Condition, ...] = ()
    if parent is Policy.PRIORITY and not last:
        pre = draw(some)
        post = draw(st.one_of(st.just(()), some))
    elif parent is Policy.SEQUENTIAL:
        post = draw(st.just(()) if last else some)
    transitions = ()
    if parent is Policy.EXPLICIT:
        targets = st.sampled_from(siblings)
        pairs = st.lists(st.tuples(conditions(), targets), max_size=2)
        transitions = tuple(b.on(condition, to) for condition, to in draw(pairs))
    children: tuple[StateDef, ...] = ()
    policy = None
    count = draw(st.integers(0, 3)) if depth < MAX_DEPTH else 0
    if count:
        policy = draw(st.sampled_from(list(Policy)))
        names = NAMES[:count]
        children = tuple(
            draw(states(child, policy, siblings=names, last=index == count - 1, depth=depth + 1))
            for index, child in enumerate(names)
        )
    return StateDef(
        name, policy, children, pre, post, draw(actions()), draw(actions()), transitions
    )


@st.composite
def charts(draw: st.DrawFn) -> Chart:
    """A random valid chart (its root starts the timer its triggers may use)."""
    root = draw(states("Root", None))
    root = StateDef(
        root.name, root.policy, root.states, enter=(b.start_timer("T", 0.5), *root.enter),
        exit=root.exit,
    )  # fmt: skip
    return b.chart("Random", root)


def steps() -> st.SearchStrategy[ScriptStep]:
    """One step of a script: any event the random charts react to, or a tick."""
    events = [Event(t.type, t.name) for t in TRIGGERS if t.type not in ("held", "timer")]
    return st.one_of(
        st.sampled_from(events).map(lambda event: ScriptStep("send", event)),
        st.sampled_from(("hold", "release")).map(
            lambda kind: ScriptStep(kind, Event("held", "H"))  # type: ignore[arg-type]
        ),
        st.sampled_from((0.25, 0.5, 1.0)).map(lambda dt: ScriptStep("tick", dt=dt)),
    )
