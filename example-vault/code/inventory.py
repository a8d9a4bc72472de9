"""A tiny inventory of garden supplies."""

from dataclasses import dataclass


@dataclass
class Item:
    name: str
    quantity: int


def restock(items, name, amount):
    for item in items:
        if item.name == name:
            item.quantity += amount
            return item
    raise KeyError(name)


def low_stock(items, threshold=2):
    return [item for item in items if item.quantity < threshold]
