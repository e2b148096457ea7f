// scamcheckd web interface: progressive enhancement only. Every page works
// without this file (forms post and redirect); it adds a busy state to the
// check button and a copy button for a new token.
'use strict';
document.addEventListener('DOMContentLoaded', () => {
  const form = document.getElementById('check-form');
  const submit = document.getElementById('check-submit');
  if (form && submit) {
    form.addEventListener('submit', () => {
      submit.textContent = submit.dataset.busy;
      submit.setAttribute('aria-busy', 'true');
      // Disabled after the submission has started, so the form still posts.
      setTimeout(() => { submit.disabled = true; }, 0);
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
});
