// The battle pages: the player's strategy form and the battle judge's desk. They appear once
// the server has the battle desk's endpoints.

/** available says whether the battle tab is shown. */
export function available() {
  return false;
}

export function mount(panel) {
  panel.replaceChildren();
}
