// `meshscope serve | proxies | translate | simulate | analyze` — see ./cli/main.ts.
export { main, USAGE } from './cli/main';
