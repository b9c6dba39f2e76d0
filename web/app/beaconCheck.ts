// The drand signature check (BLS12-381, about 33 KB gzipped), loaded by the verify worker only
// when a file holds a beacon game: a first visit never downloads it (web/build.ts).
export { cachedBeaconCheck } from '../../domain/beacon/blsSignature';
