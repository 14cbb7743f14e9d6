"""What a chosen quote brings with it: the sentence it refers back to, the one after it, the list it announces."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag_serving.answer.evidence import Candidate
from rag_serving.answer.parts import REFERRING
from rag_serving.answer.sentences import introduced, signatures, split_sentences

# A sentence opening with a word pointing back continues the one before it: "It requires the prior written approval of
# People Operations" says what "Working from another country" requires; "Both have an input impedance of 1MΩ." says
# nothing of which inputs without the sentence naming them. An opening "There is" points at nothing.
_REFERS_BACK = re.compile(rf"^\W*({'|'.join(sorted(REFERRING - {'there'} | {'such', 'both'}))})\b", re.I)
# A sentence opening with a word that turns, qualifies or draws on the one before it finishes what that one says: "If
# your program is a subroutine library, you may consider it more useful to permit linking proprietary applications"
# is answered by the next sentence, "If this is what you want to do, use the GNU Lesser General Public License".
_CONTINUES = re.compile(r"^\W*(however|otherwise|instead|nevertheless|for (this|that) reason|in (this|that|such a|either)"
                        r" case|if (so|not|this|that|these|those)|then|thus|hence|therefore|consequently|"
                        r"as a (result|consequence))\b", re.I)


def with_referents(chosen: list[Candidate], candidates: Sequence[Candidate]) -> list[Candidate]:
    """The quotes, each with the name of the manual's entry it describes (`entry`), the sentence of its paragraph that
    it refers back to, the one after it that refers back to it or continues it ("However, …", "If so, …"), and the
    entries of a list it introduces, so that no quote leans on a sentence the reader cannot see."""
    at = {(c.hit.chunk_id, c.index): c for c in candidates}
    out: list[Candidate] = []
    for c in chosen:
        before, after = at.get((c.hit.chunk_id, c.index - 1)), at.get((c.hit.chunk_id, c.index + 1))
        group = entry(c)
        group += [before] if before and before.paragraph == c.paragraph and _REFERS_BACK.match(c.text) else []
        group.append(c)
        if after and after.paragraph == c.paragraph and any(p.match(after.text) for p in (_REFERS_BACK, _CONTINUES)):
            group.append(after)
        group += entries(c)
        # Once each: a list's entry may also be quoted in its own right, as its own Candidate.
        out.extend(g for g in group if all((g.hit.chunk_id, g.index) != (o.hit.chunk_id, o.index) for o in out))
    return out


def entries(c: Candidate) -> list[Candidate]:
    """What a sentence introducing it brings (`sentences.introduced`): "The following files must be in /var/log:"
    answers with the files it lists."""
    split = split_sentences(c.hit.body)
    return [Candidate(c.hit, c.rank, split[i][0], i, split[i][1]) for i in introduced(split, c.index)]


def entry(c: Candidate) -> list[Candidate]:
    """The signature of the manual's entry a sentence describes (`sentences.signatures`): "Similar to \\appto except that
    the assignment is global." says nothing of which command it describes without "\\gappto⟨hook⟩{⟨code⟩}"."""
    split = split_sentences(c.hit.body)
    head = signatures(split).get(c.index)
    return [] if head is None else [Candidate(c.hit, c.rank, split[head][0], head, split[head][1])]
