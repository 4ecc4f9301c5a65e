import type { CallFacts } from '../../src/background/permissions/engine';

/** A click on a shop the user started on, asked for in the user's words; tests change what they test. */
export const callFacts = (over: Partial<CallFacts>): CallFacts => ({
  tool: 'click',
  risk: 'interact',
  args: { id: 3 },
  origin: 'https://shop.example',
  startOrigin: 'https://shop.example',
  userText: 'add the blue mug to my cart',
  pageText: 'Blue mug — €12. Add to cart.',
  ...over,
});
