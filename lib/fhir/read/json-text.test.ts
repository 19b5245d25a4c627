import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { entryResourceTexts } from "./json-text";

describe("the exact text of a reply's messages", () => {
  it("cuts each entry's resource out of the reply as it arrived (spacing, key order, escapes kept)", () => {
    const text = '{ "resourceType":"Bundle",\n "entry" : [ {"fullUrl":"a","resource": {"b":1 , "a":"x\\"}]," } },\n{"resource":[1,{"z":"\\u0041"}]}, {"fullUrl":"no resource"} ],"id":"r"}';
    expect(entryResourceTexts(text)).toEqual(['{"b":1 , "a":"x\\"}]," }', '[1,{"z":"\\u0041"}]', undefined]);
  });

  it("each cut parses to the entry's resource, for any JSON", () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.jsonValue(), { nil: undefined }), { maxLength: 6 }), fc.boolean(), (resources, pretty) => {
        const bundle = { resourceType: "Bundle", entry: resources.map((resource) => (resource === undefined ? { fullUrl: "x" } : { resource })) };
        const text = JSON.stringify(bundle, null, pretty ? 2 : undefined);
        const cut = entryResourceTexts(text);
        expect(cut.map((t) => (t === undefined ? undefined : JSON.parse(t)))).toEqual(bundle.entry.map((e) => ("resource" in e ? JSON.parse(JSON.stringify(e.resource)) : undefined)));
      }),
    );
  });

  it("gives nothing for what is not a Bundle text", () => {
    expect(entryResourceTexts("[1,2]")).toEqual([]);
    expect(entryResourceTexts('{"entry": 4}')).toEqual([]);
    expect(entryResourceTexts('{"entry": [')).toEqual([]);
  });
});
