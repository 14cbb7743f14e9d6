"""The answer page in a real headless Chromium (Debian's, driven by Playwright): ask, read the cited answer, click a
citation and see the quote marked on the cited page; an abstention shows the closest sources, a comparison both sides."""

import os
import shutil

import pytest
from playwright.sync_api import expect, sync_playwright

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Without the background-networking flags Chromium keeps dialling Google's hosts, which this closed network refuses.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def page(base, keys, tmp_path_factory):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        tab = context.new_page()
        tab.set_default_timeout(120_000)  # a question on 2 busy cores; the page itself answers at once
        tab.goto(base + "/")
        tab.fill("#api-key", keys["acme"])
        yield tab
        browser.close()


def ask(page, question: str) -> None:
    page.fill("#question", question)
    page.click("#ask-button")
    expect(page.locator("#status")).to_contain_text("Answered in")


def test_a_citation_opens_its_page_with_the_quote_marked(page, tmp_path_factory):
    ask(page, "How many weeks of parental leave do full-time staff get?")
    expect(page.locator("#route")).to_contain_text("Answer")
    expect(page.locator("#answer")).to_contain_text("16 weeks")
    quote = page.locator("#sources li blockquote").first.inner_text()
    page.locator("#answer .cite").first.click()
    expect(page.locator("#viewer-pane")).to_be_visible()
    viewer = page.frame_locator("#viewer")
    expect(viewer.locator("mark#quote")).to_have_text(quote, use_inner_text=True)
    # The page the link names is the page holding the quote: its label is the one the citation shows.
    cited = page.locator("#viewer-title").inner_text()  # "Employee Handbook 2025, p. 11"
    expect(viewer.locator("header")).to_contain_text(f"Page {cited.rsplit('p. ', 1)[1]} ")
    expect(viewer.locator(".box").first).to_be_visible()
    shot = tmp_path_factory.mktemp("screenshots") / "answer-page.png"
    page.screenshot(path=str(shot), full_page=True)
    print(f"answer page screenshot: {shot}")
    assert os.path.getsize(shot) > 10_000


def test_an_abstention_shows_the_closest_sources_not_an_answer(page):
    ask(page, "Why was the 2023 bonus cancelled?")
    expect(page.locator("#route")).to_contain_text("The documents don't say")
    expect(page.locator("#answer")).to_be_empty()
    expect(page.locator("#sources-heading")).to_have_text("Closest sources (not an answer)")
    assert page.locator("#sources li").count() > 0


def test_a_comparison_shows_each_side_with_its_source(page):
    ask(page, "By how much did the personal learning budget go up between the 2024 and 2025 handbooks?")
    sides = page.locator("#answer.comparison .sentence h3")
    expect(sides).to_have_count(2)
    assert {"2024" in sides.nth(0).inner_text(), "2024" in sides.nth(1).inner_text()} == {True, False}
