// ScamCheck popup: shows the last check (storage.session "current"):
// verdict, summary, actions and the message with each signal's evidence
// marked at its span. Text from the page is only ever set as textContent.
'use strict';

const msg = (key, ...subs) => chrome.i18n.getMessage(key, subs);
const $ = (id) => document.getElementById(id);

document.documentElement.lang = chrome.i18n.getUILanguage();
for (const [id, key] of [['intro', 'nothingYet'], ['pending', 'pending'], ['error-title', 'errorTitle'],
                         ['actions-heading', 'actionsHeading'], ['signals-heading', 'signalsHeading'],
                         ['truncated', 'truncatedNote'], ['paste-label', 'pasteLabel'],
                         ['paste-button', 'checkButton']]) {
  $(id).textContent = msg(key);
}

// Appends `content` to `container`, each signal's evidence (location
// "content") wrapped in <mark data-signal=key title=explanation>. Spans are
// UTF-8 byte offsets (the report's), so the text is cut as bytes. A signal
// overlapping an earlier one, or whose bytes are not its evidence, is only
// listed below, not marked.
function renderMessage(container, content, signals) {
  const bytes = new TextEncoder().encode(content);
  const decoder = new TextDecoder();
  const text = (start, end) => decoder.decode(bytes.subarray(start, end));
  const marked = signals
    .filter((s) => s.location === 'content' && s.span && s.span.start < s.span.end && s.span.end <= bytes.length)
    .sort((a, b) => a.span.start - b.span.start || b.span.end - a.span.end);
  let pos = 0;
  for (const signal of marked) {
    const { start, end } = signal.span;
    if (start < pos || text(start, end) !== signal.evidence) continue;
    if (start > pos) container.append(document.createTextNode(text(pos, start)));
    const mark = document.createElement('mark');
    mark.dataset.signal = signal.key;
    mark.title = signal.explanation;
    mark.tabIndex = 0;  // the explanation is reachable by focus, too
    mark.className = `severity-${signal.severity}`;
    mark.textContent = signal.evidence;
    container.append(mark);
    pos = end;
  }
  if (pos < bytes.length) container.append(document.createTextNode(text(pos, bytes.length)));
}

function render(entry) {
  $('intro').hidden = !!entry;
  $('pending').hidden = !entry || entry.state !== 'pending';
  $('error').hidden = !entry || entry.state !== 'error';
  $('result').hidden = !entry || entry.state !== 'done';
  if (!entry) return;
  if (entry.state === 'error') {
    $('error-message').textContent = entry.error.code === 'host_unavailable'
      ? `${msg('hostMissing')} (${entry.error.message})`
      : entry.error.message;
    return;
  }
  if (entry.state !== 'done') return;
  const report = entry.report;
  const verdict = $('verdict');
  verdict.className = `verdict-${report.verdict}`;
  verdict.dataset.verdict = report.verdict;
  $('risk-text').textContent = report.risk_text || report.verdict;
  $('score').textContent = msg('scoreLabel', String(report.risk_score));
  $('summary').textContent = report.summary_plain;

  const actions = $('actions');
  actions.replaceChildren();
  for (const action of report.actions || []) {
    const li = document.createElement('li');
    li.textContent = `${action.icon} ${action.text}`;
    actions.append(li);
  }

  $('message-heading').textContent = msg(entry.kind === 'url' ? 'linkHeading' : 'messageHeading');
  const message = $('message');
  message.replaceChildren();
  renderMessage(message, entry.content, report.signals || []);
  $('truncated').hidden = !report.truncated;

  const list = $('signals');
  list.replaceChildren();
  for (const signal of report.signals || []) {
    const li = document.createElement('li');
    li.dataset.signal = signal.key;
    const quote = document.createElement('q');
    quote.textContent = signal.evidence;
    li.append(quote, document.createTextNode(` — ${signal.explanation}`));
    list.append(li);
  }
  if (!report.signals || report.signals.length === 0) {
    const li = document.createElement('li');
    li.textContent = msg('noSignals');
    list.append(li);
  }
}

chrome.storage.session.get('current').then(({ current }) => render(current));
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'session' && changes.current) render(changes.current.newValue);
});

$('paste').addEventListener('submit', (event) => {
  event.preventDefault();
  const content = $('paste-text').value;
  if (content.trim()) chrome.runtime.sendMessage({ type: 'check', content });
});
