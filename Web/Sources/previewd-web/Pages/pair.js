// The "Pair this device" page: the code `previewd-web --pair` prints, typed here, is sent once
// (POST /pair/code, JSON, this page's own origin); a right code answers with the pairing cookie and
// the remote opens. Made for a Home Screen copy, which cannot open the pairing address itself.
'use strict';

const form = document.getElementById('pair-form');
const field = document.getElementById('pair-code');
const status = document.getElementById('pair-status');

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const code = field.value.replace(/\s+/g, '');
  if (!/^[0-9]{6}$/.test(code)) {
    say('The code is six digits.', true);
    return;
  }
  document.getElementById('pair-submit').disabled = true;
  say('Pairing…', false);
  fetch('/pair/code', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ code }),
    credentials: 'same-origin',
    cache: 'no-store',
  }).then((response) => response.json().catch(() => ({})).then((answer) => {
    if (response.ok && answer.paired) {
      say('Paired.', false);
      location.replace('/');
      return;
    }
    say(typeof answer.message === 'string' ? answer.message : `Not paired (${response.status}).`, true);
  }), () => say('No connection to previewd-web.', true)).finally(() => {
    document.getElementById('pair-submit').disabled = false;
  });
});

function say(message, isError) {
  status.textContent = message;
  status.classList.toggle('error', isError);
}
