// The answer page: asks POST /query with the key the user pasted, shows the cited answer, opens cited pages.
"use strict";

const $ = (id) => document.getElementById(id);
const KEY = "rag.apiKey";

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
}

function openPage(source) {
  $("viewer-title").textContent = `${source.title}, ${source.pages}`;
  $("viewer").src = source.link;
  $("viewer-pane").hidden = false;
}

function citationButton(number, source) {
  const button = el("button", { type: "button", class: "cite", "data-source": String(number),
                                title: `${source.title}, ${source.pages}` }, `[${number}]`);
  button.addEventListener("click", () => openPage(source));
  return button;
}

function sourceItem(number, source) {
  const open = el("a", { href: source.link, class: "open-page", "data-source": String(number) },
                  `${source.title}, ${source.pages}`);
  open.addEventListener("click", (event) => { event.preventDefault(); openPage(source); });
  return el("li", { id: `source-${number}` }, open, el("blockquote", {}, source.quote));
}

function render(body) {
  const numbers = new Map();  // one number per cited (chunk, quote), in the order sources lists them
  body.sources.forEach((s, i) => numbers.set(`${s.chunk_id}\u0000${s.quote}`, i + 1));
  const routes = { answer: "Answer", abstain: "The documents don't say", clarify: "Which do you mean?",
                   web: "Not in your documents" };
  $("route").textContent = `${routes[body.route] || body.route} · confidence ${body.confidence.toFixed(2)}`;
  $("route").dataset.route = body.route;
  const answer = $("answer");
  answer.replaceChildren();
  const sides = body.evidence && body.evidence.sides;
  if (body.answer) {
    answer.className = sides ? "comparison" : "prose";
    for (const sentence of body.answer.sentences) {
      const part = el(sides ? "div" : "span", { class: "sentence" });
      if (sides && sentence.sources.length) part.append(el("h3", {}, `${sentence.sources[0].title}, ${sentence.sources[0].pages}`));
      part.append(sentence.text, " ");
      for (const source of sentence.sources) {
        part.append(citationButton(numbers.get(`${source.chunk_id}\u0000${source.quote}`), source));
      }
      answer.append(part, " ");
    }
  }
  $("message").textContent = body.clarifying_question || body.message || "";
  $("sources-heading").textContent = body.answer ? "Sources" : "Closest sources (not an answer)";
  $("sources").replaceChildren(...body.sources.map((s, i) => sourceItem(i + 1, s)));
  $("result").hidden = false;
}

async function ask(event) {
  event.preventDefault();
  const key = $("api-key").value.trim();
  localStorage.setItem(KEY, key);
  $("status").textContent = "Searching your documents…";
  $("ask-button").disabled = true;
  try {
    const response = await fetch("query", {  // relative: works behind a proxy's path prefix too
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` },
      body: JSON.stringify({ question: $("question").value }),
    });
    const body = await response.json();
    if (!response.ok) {
      $("status").textContent = `${body.title || response.status}: ${body.detail || ""}`;
      return;
    }
    $("status").textContent = `Answered in ${Math.round(body.took_ms)} ms.`;
    render(body);
  } catch (error) {
    $("status").textContent = `The server could not be reached: ${error.message}`;
  } finally {
    $("ask-button").disabled = false;
  }
}

$("api-key").value = localStorage.getItem(KEY) || "";
$("question-form").addEventListener("submit", ask);
$("viewer-close").addEventListener("click", () => { $("viewer-pane").hidden = true; $("viewer").src = "about:blank"; });
