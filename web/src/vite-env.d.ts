/// <reference types="vite/client" />

/** The version of the service this dashboard was built with (the root package.json). */
declare const __SERVICE_VERSION__: string;
