// The CLI lives in verifier/, which imports nothing from functions/ so it can run standalone.
export { main } from '../../verifier/main';
