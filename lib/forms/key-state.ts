/** What the form key panel's action returns: the new raw key (shown once), or a refusal. */
export interface KeyState {
  key?: string;
  message?: string;
}
