// Radio (`radio {"on"}`): a switch on the player screen. On, previewd appends previews chosen from the
// catalog as the queue is about to end; the current track's reason ("radio: more from …") shows under
// its details, and why radio is not adding now (`radioNote`) under the switch. Turning it on or off
// sends `modes`, after which remote.js asks the status again.
import { $ } from './dom.js';
import { command, watchStatus } from './remote.js';

function render(status) {
  const radio = !!(status && status.radio);
  $('radio').setAttribute('aria-pressed', String(radio));
  $('reason').textContent = status && typeof status.reason === 'string' ? status.reason : '';
  $('radio-note').textContent = radio && typeof status.radioNote === 'string' ? status.radioNote : '';
}

export function wireRadio() {
  watchStatus(render);
  $('radio').addEventListener('click', () => {
    command('radio', { on: $('radio').getAttribute('aria-pressed') !== 'true' });
  });
}
