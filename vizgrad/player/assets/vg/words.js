// Words on the page: a catalogue sentence with its {name} fields filled. Shared by the
// step player and the lab (see vizgrad/player/bundle.py for how the player gets it).

// `text` with each {name} replaced by values[name]; a field without a value stays as it
// is ("{name}"), so a missing value shows on the page instead of leaving a silent gap.
export function fill(text, values) {
  return String(text).replace(/\{(\w+)\}/g, function (m, k) {
    return values && Object.prototype.hasOwnProperty.call(values, k) ? String(values[k]) : m;
  });
}
