"""MkDocs hook (``hooks:`` in mkdocs.yml): the Variants section of the navigation, by family.

The variants and their families come from the bundled ``.rules`` files
(:func:`interpreter.documentation.site.variants_nav`), so the navigation
needs no editing when a variant is added. This file is not a page.
"""

from interpreter.documentation.site import variants_nav


def on_config(config):
    """Replace ``- Variants: variants/index.md`` in the nav with the pages grouped by family."""
    for i, item in enumerate(config["nav"]):
        if isinstance(item, dict) and item.get("Variants") == "variants/index.md":
            config["nav"][i] = {"Variants": variants_nav()}
    return config
