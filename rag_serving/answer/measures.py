"""What an answer must be written in when the question says so: money, a span of time, a share, an email address or
a web address."""

from __future__ import annotations

import re
from types import MappingProxyType

_COUNT = (r"\d+(?:[.,]\d+)?|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|"
          r"forty|sixty|ninety|hundred|half|several|few|couple of")
# Asked for (question patterns) and written as (answer patterns), per measure; checked in this order. Read-only
# mappings of compiled patterns: every request thread reads them, none writes.
_ASKED = MappingProxyType({
    "email": re.compile(r"\be-?mail\s+address(es)?\b", re.I),
    "web": re.compile(r"\b(website|web\s+(site|address|page)|url)s?\b", re.I),
    # "How long" in an organization's documents is a span of time (a leave, a retention period, a defrost), or a
    # length (a cable).
    "span": re.compile(r"\bhow long\b", re.I),
    "percent": re.compile(r"\b(percentage|percent|per cent|what (share|proportion|fraction))\b", re.I),
    # Money words only: "how much leave" asks for days, "how much does the gym membership cost" for money.
    "money": re.compile(r"\b(money|cost|costs|price|fee|fees|salary|salaries|wage|wages|stipend|budget|deductible|"
                        r"reimburse\w*|refund\w*|dollars?|euros?)\b", re.I),
})
_WRITTEN = MappingProxyType({
    "email": re.compile(r"\b[\w.+-]+@[\w-]+(\.[\w-]+)+\b"),
    "web": re.compile(r"\bhttps?://\S+|\bwww\.\S+|\b[\w-]+(\.[\w-]+)*\.(com|org|net|gov|edu|io|example|eu|co)\b(/\S*)?",
                      re.I),
    "percent": re.compile(rf"%|\b({_COUNT})[\s-]+(percent|per cent)\b|\b(half|one third|a third|a quarter)\b", re.I),
    "money": re.compile(r"[$€£¥]\s?\d|\b\d[\d,.]*\s?(k|m|bn)?\s?(usd|eur|gbp|chf|cad|aud|dollars?|euros?|pounds?|cents?)\b|"
                        r"\b(usd|eur|gbp|chf|cad|aud)\s?\d|\bfree of charge\b|\bat no (extra |additional )?cost\b|"
                        r"\bno (fee|charge)\b", re.I),
    # "once a year", "twice a week", "10 times a day" say how often, not how long.
    "span": re.compile(rf"(?<!once )(?<!twice )(?<!times )(?<!per )\b({_COUNT})[\s-]+"
                       rf"((business|working|calendar|consecutive|full)[\s-]+){{0,2}}(seconds?|minutes?|"
                       r"mins?|hours?|hrs?|days?|nights?|weeks?|months?|years?|quarters?|shifts?|decades?|"
                       r"metres?|meters?|centimetres?|cm|mm|km|feet|foot|ft|inches?)\b|\b\d+(\.\d+)?\s?(s|h|min|d|m)\b|"
                       r"\b(indefinitely|permanently|until)\b|"
                       # a range: "from 3 March to 14 March 2025", "between 07:00 and 19:00"
                       r"\b(from|between)\s[^.;]{0,30}?\d[^.;]{0,30}?\s(to|and|until|till|through)\s", re.I),
})
# Read-only: shared by every request thread.
NAMES = MappingProxyType({"email": "an email address", "web": "a web address", "percent": "a percentage",
                          "money": "an amount of money", "span": "a length of time"})


def measure(question: str) -> str | None:
    """The measure the question asks its answer in, if it names one."""
    return next((name for name, pattern in _ASKED.items() if pattern.search(question)), None)


def written_in(text: str, name: str) -> bool:
    """Whether text states something in that measure."""
    return bool(_WRITTEN[name].search(text))
