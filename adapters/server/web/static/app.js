// scamcheckd web interface: progressive enhancement only. Every page works
// without this file (forms post and redirect, or answer with the page); it
// sends a text check without reloading the page, shows a busy state on the
// check button and adds a copy button for a new token.
'use strict';

// Sends the check form with fetch and puts the answer's <main> in place of
// this page's; falls back to a normal submission on any failure.
async function submitCheck(form, submit) {
  const label = submit.textContent;
  submit.textContent = submit.dataset.busy;
  submit.setAttribute('aria-busy', 'true');
  submit.disabled = true;
  try {
    const response = await fetch(form.action, { method: 'POST', body: new FormData(form),
                                                credentials: 'same-origin' });
    const page = new DOMParser().parseFromString(await response.text(), 'text/html');
    const main = page.querySelector('main');
    if (!main) throw new Error('no page in the answer');
    document.querySelector('main').replaceChildren(...main.childNodes);
    document.title = page.title;
    enhance();
    const result = document.getElementById('report-title') || document.getElementById('notice');
    if (result) {
      result.setAttribute('tabindex', '-1');
      result.focus();
    }
  } catch (e) {
    submit.textContent = label;
    submit.disabled = false;
    form.submit();
  }
}

function enhance() {
  const form = document.getElementById('check-form');
  const submit = document.getElementById('check-submit');
  if (form && submit && window.fetch && window.DOMParser) {
    form.addEventListener('submit', (event) => {
      const file = document.getElementById('file');
      if (file && file.files.length > 0) {
        // Uploads take longer: the browser's own submission shows progress.
        submit.textContent = submit.dataset.busy;
        return;
      }
      event.preventDefault();
      submitCheck(form, submit);
    });
  }
  for (const button of document.querySelectorAll('button.copy')) {
    const source = document.getElementById(button.dataset.copy);
    if (!source || !navigator.clipboard) continue;
    button.hidden = false;
    button.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(source.textContent);
        button.textContent = button.dataset.done;
      } catch (e) {
        // The value stays selectable by hand.
      }
    });
  }
}

document.addEventListener('DOMContentLoaded', enhance);
