// The wire contract, shared by the SPA, the proxy and the reference service.
export * from './limits';
export * from './models';
export * from './request';
export * from './response';
export * from './validation';
export * from './errors';
export * from './jsonSchema';
export * from './decisionsWire';
export * from './decisionsRequest';
export * from './decisionsAnswers';
export * from './usageReport';
export * from './normalise';
export * from './envelope';
export * from './modelPath';
export * from './wireForm';
export * from './targetLimits';
