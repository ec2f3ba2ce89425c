/** Renders nothing: for routes whose loader always redirects or leaves (/, /{tier}, verifyMail, switchUser). */
export function NoScreen() {
  return null;
}
