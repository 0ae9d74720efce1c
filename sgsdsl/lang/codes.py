"""Every diagnostic code the .sgs front end can emit, with a one-line title.

Codes are stable: tools and CI scripts match on them, so a code is never reused for another meaning.
Numbering: E1xx reading and syntax, E2xx names and shapes, E3xx types and effects, W4xx definitions that
can never fire, E5xx the compiler. `sgsdsl explain CODE` prints a longer explanation with a wrong and a right
example from `codes.md` beside this file (`tests/test_explain.py` checks that every code has one).
`tests/test_lang_codes.py` proves that every code the front end emits is listed here and that `tests/bad/`
holds a file for each.
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
    "SGS-W401": "a card has no copies, so it is never in the deck",
    "SGS-W402": "a leader skill (主公技), but no loaded mode has a leader, so it never activates",
    "SGS-W403": "a condition is literally false, so this never fires",
    "SGS-W404": "a conversion or provider of a card that nothing can use or ask for",
    "SGS-W406": "a tag that looks like a misspelt AI hint (agents read only the exact hint words)",
    "SGS-W405": "a `replace` or `score =` line that never applies (an unconditional line above wins)",
    # the compiler (sgsdsl/compiler) adds these
    "SGS-E501": "two names become the same Python name in generated code (rename one)",
    "SGS-E503": "the compiler cannot express this construct (a bug in sgsdsl: please report it)",
}


def title(code: str) -> str:
    """The one-line title of a code; unknown codes get a neutral text rather than an exception."""
    return CODES.get(code, "unlisted diagnostic")
