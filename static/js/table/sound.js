// Sound, off by default: a short tone when it becomes your turn and at the end of a
// game. The choice is kept in this browser.

import { gettext } from "./format.js";

const KEY = "ludo.sound";

export class Sound {
  constructor(button) {
    this.button = button;
    this.context = null;
    this.on = localStorage.getItem(KEY) === "on";
    this.show();
    button.addEventListener("click", () => {
      this.on = !this.on;
      localStorage.setItem(KEY, this.on ? "on" : "off");
      this.show();
      if (this.on) this.beep(660, 0.08);
    });
  }

  show() {
    this.button.setAttribute("aria-pressed", String(this.on));
    this.button.textContent = this.on ? gettext("Sound: on") : gettext("Sound: off");
  }

  beep(frequency = 880, seconds = 0.12) {
    if (!this.on) return;
    try {
      this.context = this.context || new AudioContext();
      const oscillator = this.context.createOscillator();
      const gain = this.context.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.15, this.context.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, this.context.currentTime + seconds);
      oscillator.connect(gain).connect(this.context.destination);
      oscillator.start();
      oscillator.stop(this.context.currentTime + seconds);
    } catch {
      // No audio here: the game goes on silently.
    }
  }
}
