// ScamCheck extension, background: the context menu "Check with ScamCheck"
// (on selected text and on links) and the one place that talks to the
// native host. The last result is kept in storage.session for the popup.
// Nothing is sent anywhere but to scamcheck-native-host on this machine.
'use strict';

const HOST = 'org.scamcheck.native_host';
const MENU_ID = 'scamcheck-check';
const BADGE_COLOURS = { safe: '#1b7f3b', suspicious: '#b86e00', danger: '#c62828' };

chrome.runtime.onInstalled.addListener(() => {
  chrome.contextMenus.removeAll(() => {
    chrome.contextMenus.create({
      id: MENU_ID,
      title: chrome.i18n.getMessage('menuCheck'),
      contexts: ['selection', 'link'],
    });
  });
});

// Sends one request to the native host and stores the outcome as
// {state: "done", content, kind, report} or {state: "error", content, kind, error}.
async function checkContent(content, kind) {
  const request = {
    id: crypto.randomUUID(),
    content,
    kind,
    locale: chrome.i18n.getUILanguage(),
  };
  await chrome.storage.session.set({ current: { state: 'pending', content, kind } });
  let entry;
  try {
    const reply = await chrome.runtime.sendNativeMessage(HOST, request);
    if (reply && reply.report) {
      entry = { state: 'done', content, kind, report: reply.report };
    } else {
      const error = (reply && reply.error) || { code: 'internal', message: 'empty reply' };
      entry = { state: 'error', content, kind, error };
    }
  } catch (e) {
    // The host is not installed, or its manifest does not allow this extension.
    entry = { state: 'error', content, kind, error: { code: 'host_unavailable', message: String(e && e.message || e) } };
  }
  await chrome.storage.session.set({ current: entry });
  await showBadge(entry);
  return entry;
}

async function showBadge(entry) {
  const verdict = entry.state === 'done' ? entry.report.verdict : null;
  await chrome.action.setBadgeText({ text: verdict ? (verdict === 'safe' ? '✓' : '!') : '?' });
  await chrome.action.setBadgeBackgroundColor({ color: BADGE_COLOURS[verdict] || '#555555' });
}

// Opens the popup over the page, where the browser allows it (right after a
// menu click); elsewhere this fails quietly and the badge tells instead.
function openPopup(tab) {
  try {
    const options = tab && Number.isInteger(tab.windowId) ? { windowId: tab.windowId } : {};
    Promise.resolve(chrome.action.openPopup(options)).catch(() => {});
  } catch (e) {
    // openPopup is missing or refused synchronously: the badge is enough.
  }
}

// The context menu's click handler: `info` is the OnClickData the browser
// passes (selectionText for selected text, linkUrl for a link). Returns the
// stored entry, or null when there was nothing to check.
async function handleMenuClick(info, tab) {
  if (!info || info.menuItemId !== MENU_ID) return null;
  const selection = typeof info.selectionText === 'string' ? info.selectionText.trim() : '';
  let content;
  let kind;
  if (selection) {
    [content, kind] = [selection, 'text'];
  } else if (typeof info.linkUrl === 'string' && info.linkUrl) {
    [content, kind] = [info.linkUrl, 'url'];
  } else {
    return null;
  }
  // Show the result where the user looks, before the (slower) check.
  openPopup(tab);
  return checkContent(content, kind);
}

chrome.contextMenus.onClicked.addListener(handleMenuClick);

// The popup's "Check" button sends {type: "check", content}.
chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
  if (sender.id !== chrome.runtime.id || !message || message.type !== 'check') return false;
  if (typeof message.content !== 'string' || !message.content.trim()) return false;
  checkContent(message.content, 'text').then(sendResponse);
  return true;  // answers asynchronously
});

// For the browser test (tests/browser): the same handler a menu click runs.
self.handleMenuClick = handleMenuClick;
