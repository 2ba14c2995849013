"""Validates JSON documents against the JSON Schemas in docs/schema, for the tests.

Reads one request per line on stdin, {"schema": PATH, "document": TEXT}, and answers each with
one line, {"errors": [...]}: empty when TEXT is JSON that PATH's schema accepts. Uses the
`jsonschema` package (the reference implementation; Scripts/test-deps installs it), draft
2020-12, with each schema checked against the metaschema when first used.
"""
import json
import sys

import jsonschema

validators = {}


def validator(path):
    if path not in validators:
        with open(path, encoding="utf-8") as f:
            schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schema)
        validators[path] = jsonschema.Draft202012Validator(schema)
    return validators[path]


def main():
    for line in sys.stdin:
        request = json.loads(line)
        try:
            document = json.loads(request["document"])
            found = validator(request["schema"]).iter_errors(document)
            errors = []
            for error in sorted(found, key=lambda e: [str(p) for p in e.absolute_path]):
                where = "/" + "/".join(str(p) for p in error.absolute_path)
                errors.append(f"{where}: {error.message}")
        except json.JSONDecodeError as error:
            errors = [f"not JSON: {error}"]
        except (OSError, jsonschema.SchemaError) as error:
            errors = [f"bad schema {request['schema']}: {error}"]
        print(json.dumps({"errors": errors[:20]}), flush=True)


if __name__ == "__main__":
    main()
