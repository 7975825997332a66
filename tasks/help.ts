/** Option texts shared by the task definitions (no imports: the config loads this file at start-up). */
export const SIGNER_HELP =
  "Who signs: an account index of this network's configured accounts (0 = the first), or a JSON keystore file " +
  "(password in CHX_KEYSTORE_PASSWORD)";
