"""Reading model replies and prompts in the shapes trainers and files hand them over.

A completion is plain text (``"```javascript ...```"``) or conversational (a list of chat
messages, possibly with tool calls and tool results in between); a prompt is plain text or a
list of messages. These helpers turn either shape into the text the `Evaluator` needs, and find
the scene a picture is scored against from a task id, an explicit prompt text, or the chat.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from sketch_env.catalog.instructions import user_message
from sketch_env.catalog.tasks import Task, get_task

__all__ = [
    "completion_text",
    "episode_replies",
    "message_text",
    "resolve_prompt",
    "scene_from_chat",
]

#: What `user_message` puts before the scene; stripped when the scene is read back from a chat.
_USER_PREFIX = user_message("").strip()


def message_text(content: Any) -> str:
    """Returns the text of one chat message's ``content``.

    Args:
        content: A string, or a list of content parts (``{"type": "text", "text": ...}``);
            other parts (images) are skipped.

    Returns:
        The text, parts joined by newlines.
    """
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):
        parts = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, Mapping) and isinstance(part.get("text"), str):
                parts.append(part["text"])
        return "\n".join(parts)
    return str(content)


def completion_text(completion: Any) -> str:
    """Returns the reply text of one completion, plain or conversational.

    In a conversation the last assistant message that has text is the reply: earlier turns are
    drafts the policy revised (after tool feedback), and tool messages are the environment's.

    Args:
        completion: A string, or a list of ``{"role": ..., "content": ...}`` messages.

    Returns:
        The reply text (``""`` when there is none, which the gate then refuses).

    Examples:
        >>> completion_text([{"role": "assistant", "content": "draft"},
        ...                  {"role": "tool", "content": "ok"},
        ...                  {"role": "assistant", "content": "final"}])
        'final'
    """
    if completion is None:
        return ""
    if isinstance(completion, bytes):
        return completion.decode("utf-8", "replace")
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Mapping):
        return message_text(completion.get("content"))
    for message in reversed(list(completion)):
        if isinstance(message, Mapping) and message.get("role", "assistant") == "assistant":
            text = message_text(message.get("content"))
            if text.strip():
                return text
    return ""


def episode_replies(completion: Any, tool: str = "render") -> list[str]:
    """Every sketch a policy submitted in one episode, in order: its attempts and revisions.

    Two shapes of conversation are read. With ``tool`` calls (TRL's tool mode, where
    `sketch_env.trl.SketchToolEnv` scores the last sketch rendered) the episode is the
    ``sketch`` argument of each call. Otherwise (a multi-turn OpenEnv episode, where each reply
    is a step) it is each assistant message that has text. A plain string is one reply.

    Args:
        completion: A string, or a list of chat messages.
        tool: The name of the tool whose calls carry the sketches.

    Returns:
        The replies, first to last (``[""]`` when there is none, which the gate refuses).

    Examples:
        >>> episode_replies([
        ...     {"role": "assistant", "content": "", "tool_calls": [{"type": "function",
        ...      "function": {"name": "render", "arguments": {"sketch": "A"}}}]},
        ...     {"role": "tool", "name": "render", "content": "Render: ok"},
        ...     {"role": "assistant", "content": "done"}])
        ['A']
    """
    if completion is None or isinstance(completion, str | bytes | Mapping):
        return [completion_text(completion)]
    messages = [m for m in completion if isinstance(m, Mapping)]
    called: list[str] = []
    for message in messages:
        for call in message.get("tool_calls") or ():
            function = call.get("function", call) if isinstance(call, Mapping) else {}
            if function.get("name") != tool:
                continue
            arguments = function.get("arguments")
            if isinstance(arguments, str):
                try:
                    arguments = json.loads(arguments)
                except json.JSONDecodeError:
                    arguments = {}
            sketch = arguments.get("sketch") if isinstance(arguments, Mapping) else None
            called.append(sketch if isinstance(sketch, str) else "")
    if called:
        return called
    replies = [
        text
        for m in messages
        if m.get("role", "assistant") == "assistant" and (text := message_text(m.get("content")))
        if text.strip()
    ]
    return replies or [""]


def scene_from_chat(prompt: Any) -> str:
    """Reads the scene to paint out of a prompt, plain or conversational.

    Args:
        prompt: A string, or a list of messages whose last user message holds the request
            (``"Paint this: <scene>"`` as `sketch_env.catalog.instructions.user_message` writes it).

    Returns:
        The scene text (the whole last user message when it has no known prefix).
    """
    if prompt is None:
        return ""
    if isinstance(prompt, str):
        text = prompt
    else:
        text = ""
        for message in reversed(list(prompt)):
            if isinstance(message, Mapping) and message.get("role") == "user":
                text = message_text(message.get("content"))
                break
    text = text.strip()
    if _USER_PREFIX and text.startswith(_USER_PREFIX):
        text = text[len(_USER_PREFIX) :].strip()
    return text


def resolve_prompt(
    *,
    prompt_text: str | None = None,
    task_id: str | None = None,
    chat_prompt: Any = None,
    tasks: Sequence[Task] | None = None,
) -> str:
    """Decides what a picture is scored against.

    Order: an explicit ``prompt_text``; else the prompt of ``task_id``; else the scene read from
    the chat prompt. An explicit text wins so that a dataset can carry its own wording.

    Args:
        prompt_text: The scene, as text.
        task_id: A task id (``"flowers/watercolour"``).
        chat_prompt: The prompt the policy saw.
        tasks: The task set for ``task_id``; the shipped one when ``None``.

    Returns:
        The scene text.

    Raises:
        sketch_env.catalog.tasks.UnknownTaskError: If ``task_id`` is not in the task set.
        ValueError: If none of the three gives a non-empty text.
    """
    if isinstance(prompt_text, str) and prompt_text.strip():
        return prompt_text.strip()
    if isinstance(task_id, str) and task_id.strip():
        return get_task(task_id.strip(), tasks).prompt
    scene = scene_from_chat(chat_prompt)
    if scene:
        return scene
    raise ValueError(
        "no prompt to score against: give a 'prompt_text' or 'task_id' dataset column, or a "
        "chat prompt with a user message"
    )
