export * from './countries';
export * from './networks';
export * from './pricing';
