/**
 * Electron accelerator syntax ("CommandOrControl+Shift+Space"), checked without Electron so the
 * host can refuse a bad global shortcut with a reason before the shell ever tries it.
 * See https://www.electronjs.org/docs/latest/api/accelerator.
 */

const MODIFIERS = new Set(
  [
    'command',
    'cmd',
    'control',
    'ctrl',
    'commandorcontrol',
    'cmdorctrl',
    'alt',
    'option',
    'altgr',
    'shift',
    'super',
    'meta',
  ].map((m) => m.toLowerCase()),
);

const NAMED_KEYS = new Set(
  [
    'plus',
    'space',
    'tab',
    'capslock',
    'numlock',
    'scrolllock',
    'backspace',
    'delete',
    'insert',
    'return',
    'enter',
    'up',
    'down',
    'left',
    'right',
    'home',
    'end',
    'pageup',
    'pagedown',
    'escape',
    'esc',
    'volumeup',
    'volumedown',
    'volumemute',
    'medianexttrack',
    'mediaprevioustrack',
    'mediastop',
    'mediaplaypause',
    'printscreen',
    'numdec',
    'numadd',
    'numsub',
    'nummult',
    'numdiv',
  ].map((k) => k.toLowerCase()),
);

function isKey(part: string): boolean {
  const k = part.toLowerCase();
  if (NAMED_KEYS.has(k)) return true;
  if (/^[a-z0-9]$/.test(k)) return true;
  if (/^f([1-9]|1[0-9]|2[0-4])$/.test(k)) return true;
  if (/^num[0-9]$/.test(k)) return true;
  // Punctuation keys are single characters; "+" itself is spelled "Plus".
  return part.length === 1 && `)!@#$%^&*(:;=<,_-.>/?~\`{]}[|\\"'`.includes(part);
}

/**
 * Why `text` is not a usable global shortcut, or null when it is: modifiers first, then exactly
 * one key, and at least one modifier unless the key is a function key (a bare letter registered
 * system-wide would swallow that letter in every other app).
 */
export function acceleratorProblem(text: string): string | null {
  const parts = text.split('+');
  if (parts.some((p) => p.trim() === '' || p !== p.trim()))
    return 'write it as modifiers and one key joined by "+", without spaces, e.g. CommandOrControl+Shift+Space';
  const key = parts[parts.length - 1] ?? '';
  const modifiers = parts.slice(0, -1);
  const unknown = modifiers.find((m) => !MODIFIERS.has(m.toLowerCase()));
  if (unknown !== undefined) {
    return isKey(unknown)
      ? `"${unknown}" is a key, not a modifier: a shortcut has exactly one key, at the end`
      : `"${unknown}" is not a modifier (use CommandOrControl, Control, Alt, Shift, Super or Meta)`;
  }
  if (!isKey(key)) {
    return MODIFIERS.has(key.toLowerCase())
      ? 'the shortcut needs a key after its modifiers, e.g. CommandOrControl+Shift+Space'
      : `"${key}" is not a key Electron knows (letters, digits, F1–F24, Space, Enter, arrows…)`;
  }
  if (new Set(modifiers.map((m) => m.toLowerCase())).size !== modifiers.length)
    return 'a modifier is named twice';
  if (modifiers.length === 0 && !/^f\d+$/i.test(key))
    return 'a global shortcut needs a modifier (CommandOrControl, Alt, Shift…) unless it is a function key';
  return null;
}
