// The box's outputs (MPD's `outputs`; status `outputs`): one chip each on the player screen, pressed
// while it sounds; a tap turns that output on or off (`output {"id", "enabled"}`), the others play on.
// A page playing here is not among them: its own switch is "Play here".
import { $ } from './dom.js';
import { on } from './events.js';
import { command, refreshStatus, watchStatus } from './remote.js';

let drawn = '';

function render(status) {
  const outputs = status && Array.isArray(status.outputs) ? status.outputs : [];
  const key = JSON.stringify(outputs.map((output) => [output.id, output.name, output.enabled]));
  if (key === drawn) return;
  drawn = key;
  const box = $('outputs');
  box.hidden = outputs.length === 0;
  box.replaceChildren(...outputs.map((output) => {
    const chip = document.createElement('button');
    chip.type = 'button';
    chip.className = 'chip output';
    chip.dataset.id = String(output.id);
    chip.setAttribute('aria-pressed', String(!!output.enabled));
    chip.textContent = String(output.name);
    chip.title = `${output.plugin}: ${output.enabled ? 'on' : 'off'}`;
    return chip;
  }));
}

export function wireOutputs() {
  watchStatus(render);
  $('outputs').addEventListener('click', (event) => {
    const chip = event.target.closest('button.output');
    if (!chip) return;
    command('output', { id: Number(chip.dataset.id), enabled: chip.getAttribute('aria-pressed') !== 'true' });
  });
  on('output', (e) => { if (e.state === 'enabled' || e.state === 'disabled') refreshStatus(); });
}
