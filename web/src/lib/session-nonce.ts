/** Where a page rendered on the server holds the visitor's session nonce; the server
 *  fills it in per visitor as it sends the page (`SESSION_NONCE_SLOT` in shell.rs). */
export const SESSION_NONCE_SLOT = '@@ferroshop:session-nonce@@';
