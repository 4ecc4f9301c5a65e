// A real browser, real servers: allow for a slow CI machine, never for a hang.
jest.setTimeout(90_000);
