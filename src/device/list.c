/* A minimal intrusive doubly linked list. */
#include "device/device.h"

void list_init(struct list_node *head) { head->prev = head->next = head; }

void list_add(struct list_node *head, struct list_node *node)
{
    node->next = head->next;
    node->prev = head;
    head->next->prev = node;
    head->next = node;
}

void list_del(struct list_node *node)
{
    node->prev->next = node->next;
    node->next->prev = node->prev;
    node->prev = node->next = node;
}

bool list_empty(const struct list_node *head) { return head->next == head; }
