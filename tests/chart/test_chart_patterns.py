"""Patterns: a state written once with typed parameters, used by several states.

The combo's two attack steps are one pattern, ComboStep, used twice; the chart it loads to
is the combo written out by hand, and plays the same trace.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from chart_samples import CHARTS, GAME, Recorder, example

from statetree.chart import (
    DEFAULT_REGISTRY,
    ActionDef,
    ActionType,
    Chart,
    ChartError,
    Param,
    UseDef,
    chart_structure,
    dump_yaml,
    from_data,
    load,
    loads,
    schema,
    to_data,
)
from statetree.chart import builder as b

WRITTEN_OUT = Path(__file__).parent / "patterns" / "combo_written_out.yaml"
COMBO = CHARTS / "combo_attack.yaml"
STEP = "Character.Alive.ComboAttack.ComboAttack"


def line_of(path: Path, text: str, start: int = 0) -> int:
    """The line of ``path`` holding ``text`` (the first after line ``start``)."""
    lines = path.read_text().splitlines()
    return next(n for n, line in enumerate(lines, 1) if n > start and text in line)


def test_the_combo_with_its_pattern_is_the_combo_written_out() -> None:
    combo, written = example("combo_attack.yaml"), load(WRITTEN_OUT, GAME)
    assert combo == written
    assert [pattern.name for pattern in combo.patterns] == ["ComboStep"]
    script = (CHARTS / "combo_attack.events").read_text()
    assert Recorder(combo).play(script) == Recorder(written).play(script)


def test_each_use_is_kept_with_its_arguments_and_its_place() -> None:
    combo = example("combo_attack.yaml")
    first = combo.find(f"{STEP}1")
    assert first is not None and first.use == UseDef(
        "ComboStep", (("attack", "ComboAttack1"), ("damage", 2.0), ("pre", 0.75), ("window", 0.5))
    )
    pre = combo.find(f"{STEP}2.Pre")
    assert pre is not None and pre.use is None  # written in the pattern, not a use itself
    assert [
        (site.pattern, site.file, combo.origin.used_at(site).line) for site in combo.origin.uses
    ] == [
        ("ComboStep", str(COMBO), line_of(COMBO, "name: ComboAttack1")),
        ("ComboStep", str(COMBO), line_of(COMBO, "name: ComboAttack2")),
    ]


def test_the_states_a_pattern_wrote_are_located_inside_it() -> None:
    structure = chart_structure(example("combo_attack.yaml"))
    use, pre = structure.state(f"{STEP}2"), structure.state(f"{STEP}2.Pre")
    assert use.location is not None and pre.location is not None
    assert (use.location.file, use.location.line) == (
        str(COMBO),
        line_of(COMBO, "name: ComboAttack2"),
    )
    assert (pre.location.file, pre.location.line) == (str(COMBO), line_of(COMBO, "name: Pre"))
    assert use.note == "«ComboStep»" and pre.note == ""


def test_collapsed_a_use_is_one_state_named_after_its_pattern() -> None:
    combo = example("combo_attack.yaml")
    collapsed = chart_structure(combo, collapse=True)
    expanded = chart_structure(combo)
    assert set(expanded.names) - set(collapsed.names) == {
        f"{STEP}{n}.{state}" for n in (1, 2) for state in ("Pre", "Window", "Post", "Next")
    }
    assert collapsed.state(f"{STEP}1").note == "«ComboStep»"
    assert all(edge.source.count(".") <= 3 for edge in collapsed.edges)
    assert f"{STEP}1" not in collapsed.children
    assert collapsed.validate().ok


GENERIC = """\
name: G
patterns:
  Blink:
    params:
      light: string
      on: {type: number, default: 0.5, minimum: 0}
      mode: {type: string, choices: [soft, hard], default: soft}
      loud: {type: boolean, default: false}
    enter:
      - raise: ${light}_$mode
      - lamp: {name: $light, loud: $loud, price: "$$5"}
      - start_timer: {name: Lit, delay: $on}
    states:
      - name: On
        transitions: [{on: {timer: Lit}, to: Off}]
      - name: Off
root:
  name: Top
  policy: priority
  states:
    - {name: Red, use: Blink, with: {light: Red, on: 2, mode: hard}, pre: {input: R}}
    - use: Blink
      with: {light: Any, loud: true}
"""
LAMP = DEFAULT_REGISTRY.with_actions(
    ActionType("lamp", (Param("name"), Param("loud", bool), Param("price")))
)


def test_arguments_fill_each_reference_with_its_type_and_defaults_fill_the_rest() -> None:
    chart = loads(GENERIC, "yaml", LAMP)
    red, any_light = chart.root.states
    assert red.name == "Red" and red.pre == (b.input("R"),)
    assert red.enter == (
        ActionDef("raise", (("name", "Red_hard"),)),
        ActionDef("lamp", (("name", "Red"), ("loud", False), ("price", "$5"))),
        ActionDef("start_timer", (("name", "Lit"), ("delay", 2.0))),
    )
    # A use without a name is named after its pattern.
    assert any_light.name == "Blink"
    assert any_light.enter[:2] == (
        ActionDef("raise", (("name", "Any_soft"),)),
        ActionDef("lamp", (("name", "Any"), ("loud", True), ("price", "$5"))),
    )
    assert any_light.use == UseDef("Blink", (("light", "Any"), ("loud", True)))


def test_a_use_sets_its_own_pre_post_and_transitions_in_place_of_the_patterns() -> None:
    text = """\
name: P
patterns:
  Step:
    post: Done
    states: [{name: A, enter: [raise: Done]}]
root:
  name: Top
  policy: sequential
  states:
    - {name: One, use: Step}
    - {name: Two, use: Step, post: Finished}
    - {name: Three, use: Step}
"""
    chart = loads(text, "yaml")
    one, two, three = chart.root.states
    assert one.post == three.post == (b.event("Done"),)
    assert two.post == (b.event("Finished"),)
    assert two.use == UseDef("Step", (), ("post",))
    assert to_data(chart)["root"]["states"][1] == {
        "name": "Two",
        "use": "Step",
        "post": {"event": "Finished"},
    }
    # The last child stays: a post-condition of its own would never be read.
    with pytest.raises(ChartError, match=r"the post-condition of Top\.Three would never be read"):
        loads(text.replace("{name: Three, use: Step}", "{name: Three, use: Step, post: X}"), "yaml")


def test_uses_inside_patterns_and_imported_libraries_expand_in_their_own_files(
    tmp_path: Path,
) -> None:
    (tmp_path / "lib").mkdir()
    library = tmp_path / "lib" / "moves.yaml"
    library.write_text(
        "patterns:\n"
        "  Flash:\n"
        "    params: {colour: string}\n"
        "    enter: [{raise: $colour}]\n"
        "  Hit:\n"
        "    params: {colour: string, delay: number}\n"
        "    enter: [{start_timer: {name: Recover, delay: $delay}}]\n"
        "    states:\n"
        "      - {name: Shown, use: Flash, with: {colour: $colour}}\n"
    )
    hero = tmp_path / "hero.yaml"
    hero.write_text(
        "name: Hero\n"
        "imports: [lib/moves.yaml]\n"
        "root:\n"
        "  name: Top\n"
        "  states:\n"
        "    - {name: Struck, use: Hit, with: {colour: Red, delay: 0.3}}\n"
    )
    chart = load(hero)
    struck = chart.root.states[0]
    assert struck.enter == (b.start_timer("Recover", 0.3),)
    assert struck.states[0].name == "Shown" and struck.states[0].enter == (b.raise_event("Red"),)
    assert chart.imports == ("lib/moves.yaml",) and chart.patterns == ()
    shown = str(tmp_path / "lib" / "moves.yaml")
    assert chart.origin.files == (str(hero), shown)
    sites = [(s.pattern, s.file, s.pattern_file) for s in chart.origin.uses]
    assert sites == [("Hit", str(hero), shown), ("Flash", shown, shown)]
    place = chart.origin.place(("root", "states", 0, "states", 0, "enter", 0))
    assert (place.file, place.line) == (shown, 4)
    assert [site.pattern for site in place.uses] == ["Flash", "Hit"]


def test_the_builder_writes_the_same_patterns_and_uses_as_a_file() -> None:
    step = b.pattern(
        b.state(
            "ComboStep",
            b.state(
                "Pre",
                enter=[
                    b.action("play_animation", name=b.ref("attack")),
                    b.action("play_sound", name=b.ref("attack")),
                    b.start_timer("Pre", b.ref("pre")),
                ],
                transitions=[b.on(b.timer("Pre"), "Window")],
            ),
            b.state(
                "Window",
                enter=[b.start_timer("Window", b.ref("window"))],
                transitions=[
                    b.on(b.timer("Window"), "Post"),
                    b.on(b.input("ComboAttackButton"), "Next"),
                ],
            ),
            b.state("Post"),
            b.state("Next", enter=[b.raise_event("Next")]),
            post=b.event("Next"),
            enter=[
                b.action("enable_damage_collision", name=b.ref("attack"), damage=b.ref("damage"))
            ],
            exit=[b.action("disable_damage_collision", name=b.ref("attack")), b.clear_history()],
        ),
        params=[
            Param("attack"),
            Param("damage", float),
            Param("pre", float),
            Param("window", float),
        ],
    )
    file = example("combo_attack.yaml")
    sequence = file.find("Character.Alive.ComboAttack")
    assert sequence is not None
    arguments = [site.use.arguments for site in file.origin.uses]
    uses = [
        b.use("ComboStep", f"ComboAttack{n}", dict(args)) for n, args in enumerate(arguments, 1)
    ]
    combo = b.state(
        "ComboAttack",
        *uses,
        sequence.states[2],
        policy="sequential",
        pre=sequence.pre,
        post=sequence.post,
        exit=sequence.exit,
    )
    alive = file.root.states[0]
    root = b.state(
        "Character",
        b.state("Alive", combo, alive.states[1], policy="priority", transitions=alive.transitions),
        file.root.states[1],
    )
    built = b.chart("Combo", root, registry=GAME, patterns=[step])
    assert built == file
    # The same parameters; the body as the builder writes it (the file's is as written).
    assert [(p.name, p.params) for p in built.patterns] == [
        (p.name, p.params) for p in file.patterns
    ]
    assert [site.use for site in built.origin.uses] == [site.use for site in file.origin.uses]


def test_the_combo_round_trips_through_yaml_json_and_toml_with_its_pattern() -> None:
    combo = example("combo_attack.yaml")
    data = to_data(combo)
    assert "use" in data["root"]["states"][0]["states"][0]["states"][0]
    for chart in (from_data(data, GAME), loads(dump_yaml(combo), "yaml", GAME)):
        assert chart == combo and to_data(chart) == data
    toml = (Path(__file__).parent / "patterns" / "combo.toml").read_text()
    assert loads(toml, "toml", GAME) == combo


def test_a_library_file_is_not_a_chart() -> None:
    with pytest.raises(Exception, match="only defines patterns"):
        loads("patterns:\n  A: {enter: [clear_history]}\n", "yaml")


def test_charts_compare_by_the_machine_so_patterns_and_twins_are_equal() -> None:
    plain = Chart("C", b.state("Top", b.state("A", enter=[b.clear_history()])))
    reused = from_data(
        {
            "name": "C",
            "patterns": {"Clear": {"enter": ["clear_history"]}},
            "root": {"name": "Top", "states": [{"name": "A", "use": "Clear"}]},
        }
    )
    assert reused == b.chart(plain.name, plain.root)
    assert hash(reused) == hash(b.chart(plain.name, plain.root))


def test_every_engine_runs_the_pattern_chart_as_the_written_out_one() -> None:
    """The batch, the wire and the structure get ordinary states: no engine knows patterns."""
    pytest.importorskip("numpy", reason="the chart batch needs NumPy (the batch extra)")
    from statetree import net
    from statetree.chart import BatchCodec, ChartBatch, Event, compile_chart
    from statetree.chart.structure import compiled_structure

    combo, written = example("combo_attack.yaml"), load(WRITTEN_OUT, GAME)
    assert chart_structure(combo) == chart_structure(written)
    handlers = {action.name: lambda calls: None for action in GAME.host_actions()}
    batches = [ChartBatch(chart, 3, handlers) for chart in (combo, written)]
    codecs = []
    for batch in batches:
        compiled = batch.agent(0).compiled
        codec = net.Codec.auto(compiled_structure(compiled))
        codecs.append(BatchCodec(codec, compiled))
        batch.start()
        batch.send(Event("input", "ComboAttackButton"), [0, 1])
        batch.tick(0.8)
        batch.send(Event("input", "ComboAttackButton"), [1])
    # Agent 1 pressed in the window: on to the second step; agent 0 in its window; 2 idle.
    assert [batch.agent(n).active[-1] for batch in batches for n in range(3)] == [
        f"{STEP}1.Window",
        f"{STEP}2.Pre",
        "Character.Alive.Idle",
    ] * 2
    assert [[batches[0].agent(n).active for n in range(3)]] == [
        [batches[1].agent(n).active for n in range(3)]
    ]
    assert codecs[0].encode(batches[0]) == codecs[1].encode(batches[1])
    assert compile_chart(combo).by_path.keys() == compile_chart(written).by_path.keys()


@pytest.mark.parametrize(
    "data",
    [
        {"name": "X", "root": {"name": "R", "with": {"a": 1}}},
        {"name": "X", "root": {"use": "P", "enter": ["clear_history"]}},
        {"name": "X", "root": {"use": "P", "with": {"a": [1]}}},
        {"name": "X", "patterns": {"P": {"name": "Q"}}, "root": {"use": "P"}},
        {"name": "X", "patterns": {"P": {"params": {"a": "text"}}}, "root": {"use": "P"}},
        {"name": "X", "patterns": {"1P": {}}, "root": {"use": "1P"}},
        {"name": "X", "imports": "lib.yaml", "root": {"name": "R"}},
    ],
)
def test_what_the_schema_rejects_of_patterns_the_loader_rejects(data: dict[str, object]) -> None:
    jsonschema = pytest.importorskip("jsonschema", reason="needs jsonschema (the test extra)")
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema())
    with pytest.raises(ChartError):
        from_data(data)


def test_the_schema_accepts_patterns_uses_and_imports() -> None:
    jsonschema = pytest.importorskip("jsonschema", reason="needs jsonschema (the test extra)")
    for chart in (example("combo_attack.yaml"), loads(GENERIC, "yaml", LAMP)):
        jsonschema.validate(to_data(chart), schema())
    jsonschema.validate({"imports": ["lib.yaml"], "name": "X", "root": {"use": "P"}}, schema())
