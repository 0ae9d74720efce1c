"""Every diagnostic code sgsdsl prints, with a one-line title: the .sgs front end's (SGS-) and the scenario
files' (SCN-), one table for `sgsdsl explain`.

Codes are stable: tools and CI scripts match on them, so a code is never reused for another meaning.
Numbering: E1xx reading and syntax, E2xx names and shapes, E3xx types and effects, W4xx definitions that
can never fire, E5xx the compiler. `sgsdsl explain CODE` prints a longer explanation with a wrong and a right
example from `codes.md` beside this file (`tests/test_explain.py` checks that every code has one).
`tests/test_lang_codes.py` proves that every code any part of sgsdsl emits is listed here and explained, and that
`tests/bad/` holds a file for each SGS code.
"""

from __future__ import annotations

CODES: dict[str, str] = {
    "SGS-E000": "internal error in sgsdsl itself (a bug: please report it with the input)",
    "SGS-E100": "a path cannot be read: missing, a directory, not a regular file, or no permission",
    "SGS-E101": "unexpected character: no token of the language starts with it",
    "SGS-E102": "unexpected token: the grammar expected something else here",
    "SGS-E103": "unexpected end of file: a block or definition is not finished",
    "SGS-E104": "nesting is too deep to be a sensible rule",
    "SGS-E105": "the file is not UTF-8 text (binary data or invalid UTF-8)",
    "SGS-E106": "the file is too large to be a rules file",
    "SGS-E107": "an imported file does not exist or cannot be read",
    "SGS-E108": "a bracket is never closed (reported at the bracket, with where the parser noticed)",
    "SGS-E109": "a local name (`let`, a loop's variable) is assigned to: locals are immutable",
    "SGS-E110": "files import each other in a cycle",
    "SGS-E201": "a name is defined twice",
    "SGS-E202": "unknown name (card, general, skill, role, local, constant...)",
    "SGS-E203": "unknown function, action or value",
    "SGS-E204": "wrong arguments: too many, too few, unknown or repeated names",
    "SGS-E205": "unknown timing",
    "SGS-E206": "the event of this timing has no such field",
    "SGS-E207": "this kind of value has no such field",
    "SGS-E208": "unknown word where a fixed one is expected (category, flag, context, scope, gender...)",
    "SGS-E209": "a number or range that cannot be right (HP, player counts, role counts, target counts)",
    "SGS-E210": "'break' outside a loop",
    "SGS-E211": "a definition's id must be ASCII",
    "SGS-E212": "unknown type name",
    "SGS-E213": "top-level `copies` for a card of the same file (list the faces in the card's own `copies`)",
    "SGS-E214": "a `rule` trigger marked `optional` (a rule has no owner to ask)",
    "SGS-E215": "a primitive used outside the one place it belongs (take_turn outside turn_order, winners() "
                "outside score)",
    "SGS-E216": "a mode replaces a card with itself",
    "SGS-E217": "a mode member that may appear once (players, leader, setup, turn_order, trigger_order) appears twice",
    "SGS-E218": "a mode extends itself (directly or through the modes it extends)",
    "SGS-E219": "a declared kingdom has the name of a card, general, skill or role",
    "SGS-E225": "a role is listed in two camps of one mode",
    "SGS-E226": "a role is named `solo` twice, or is `solo` and in a camp (each solo seat is a side of its own)",
    "SGS-E230": "an awakening skill (觉醒技) with an optional trigger, a non-trigger member or no trigger",
    "SGS-E231": "a `limit` on a trigger of a rule or a mode (only a skill's triggers have an owner to count)",
    "SGS-E232": "a procedure calls itself, directly or through other procedures (it might never end)",
    "SGS-E233": "procedure calls nest too deep (more than 32 procedures inside one another)",
    "SGS-E234": "a general's kingdom is not one the program declares (`kingdom 魏 蜀 吴 群`)",
    "SGS-E240": "a mode option's default is not a constant (true/false, a number or a word)",
    "SGS-E241": "the deck holds more than 2000 cards (copies of all cards together)",
    "SGS-E301": "an argument has the wrong type",
    "SGS-E302": "this field cannot be assigned",
    "SGS-E303": "an action (something that changes the game) inside a condition or value",
    "SGS-E304": "an engine value is redefined with the wrong parameters",
    "SGS-E305": "operands of incompatible types",
    "SGS-E306": "'is' tests a card, but the left side is not a card",
    "SGS-E307": "cancel() at a timing whose event cannot be cancelled",
    "SGS-E308": "a `let` or `for` in a block gives an outer name a value of another type (kept after the block)",
    "SGS-W401": "a card has no copies, so it is never in the deck",
    "SGS-W402": "a leader skill (主公技), but no loaded mode has a leader, so it never activates",
    "SGS-W403": "a condition is literally false, so this never fires",
    "SGS-W404": "a conversion or provider of a card that nothing can use or ask for",
    "SGS-W406": "a tag that looks like a misspelt AI hint (agents read only the exact hint words)",
    "SGS-W405": "a `replace` or `score =` line that never applies (an unconditional line above wins)",
    "SGS-W407": "a choice of characters agents cannot aim: no words say whether it helps or harms the one chosen",
    # the compiler (sgsdsl/compiler) adds these
    "SGS-E501": "two names become the same Python name in generated code (rename one)",
    "SGS-E503": "the compiler cannot express this construct (a bug in sgsdsl: please report it)",
    # scenario files (`sgsdsl test`, sgsdsl/scenario): SCN-E1xx the file's form, SCN-E2xx names the rules lack
    "SCN-E100": "a scenario line cannot be read (not a statement the format knows, or a statement's words are wrong)",
    "SCN-E101": "a scenario has no seats",
    "SCN-E102": "seats are not P0, P1, … in order",
    "SCN-E103": "a script, expectation or start names a seat that does not exist",
    "SCN-E104": "a seat's attribute (`hand:`, `equip:`, `pile` …) outside a `seat` line",
    "SCN-E105": "a statement or seat given twice",
    "SCN-E106": "a statement without its value",
    "SCN-E107": "a value of the wrong form (a number, HP, a count, `setup:` or `players:`)",
    "SCN-E108": "an unknown stop point in `until:`",
    "SCN-E109": "an unknown phase in `start:`",
    "SCN-E110": "a seat was expected (P0, P1 …)",
    "SCN-E111": "a card written with a face that cannot be read, or a face without a card name",
    "SCN-E112": "`offers` or `refuse` without the option it is about",
    "SCN-E113": "an `expect` line that cannot be read",
    "SCN-E114": "`setup: mode` together with `seat` lines",
    "SCN-E200": "the rules file a scenario loads cannot be found",
    "SCN-E201": "the rules a scenario loads do not check",
    "SCN-E202": "an unknown card in a zone or deck",
    "SCN-E203": "an unknown general in a `seat` line",
    "SCN-E204": "the mode or one of its options is wrong for these rules",
    "SCN-E205": "an unknown role in a `seat` line",
    "SCN-E206": "`covers` names no card, skill or rule of the rules",
    "SCN-E207": "no free copy of a card is left for a zone",
    "SCN-E208": "two pieces of equipment for one slot",
}


def title(code: str) -> str:
    """The one-line title of a code; unknown codes get a neutral text rather than an exception."""
    return CODES.get(code, "unlisted diagnostic")
