/** Read-only functions of the service, for programs: plain async functions. */
export {};
