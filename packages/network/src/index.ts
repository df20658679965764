export * from './calls';
export * from './countries';
export * from './directory';
export * from './encoding';
export * from './magic';
export * from './networks';
export { mobilePool, type WeightedNetwork } from './operators';
export * from './pricing';
export * from './sms';
